import Core
import Files
import Storage

/// What the file endpoints need beyond the data endpoints (§5.3): the store of file content, the blob
/// store it lives in, the resized-variant cache, and gauges of the cache's work.
public struct FileServices: Sendable {
    /// File objects' content records.
    public let store: any BackbeamFileStore
    /// Where content lives.
    public let blobs: BlobStore
    /// Resized images (§5.3.5).
    public let variants: ImageVariants
    let gauges: ImageGauges?

    /// File services over `store` and `blobs`, with variants cached as `settings` say (in
    /// `defaultImageDirectory` unless they name a directory). `metrics` gets the image cache's gauges.
    public init(store: any BackbeamFileStore, blobs: BlobStore, settings: ImageSettings, defaultImageDirectory: String,
                metrics: MetricsRegistry? = nil) throws {
        self.store = store
        self.blobs = blobs
        variants = try ImageVariants(configuration: settings.variantsConfiguration(defaultDirectory: defaultImageDirectory))
        gauges = metrics.map(ImageGauges.init)
    }

    /// Publishes the variant cache's counters after a resize request.
    func recordImageWork() {
        guard let gauges else { return }
        let statistics = variants.statistics
        gauges.rendered.set(Double(statistics.rendered))
        gauges.hits.set(Double(statistics.hits))
        gauges.cacheBytes.set(Double(variants.cachedBytes))
        gauges.cacheEntries.set(Double(variants.cachedCount))
    }
}

/// The image cache as metrics: how many variants were decoded and rendered (single flight makes 100
/// concurrent requests for a new variant one render), cache hits, and the cache's size.
struct ImageGauges: Sendable {
    let rendered: Gauge
    let hits: Gauge
    let cacheBytes: Gauge
    let cacheEntries: Gauge

    init(_ metrics: MetricsRegistry) {
        rendered = metrics.gauge("quartet_backbeam_image_variants_rendered", help: "Image variants rendered since start")
        hits = metrics.gauge("quartet_backbeam_image_variant_hits", help: "Image variant requests answered from the cache")
        cacheBytes = metrics.gauge("quartet_backbeam_image_cache_bytes", help: "Bytes held by cached image variants")
        cacheEntries = metrics.gauge("quartet_backbeam_image_cache_entries", help: "Cached image variants")
    }
}
