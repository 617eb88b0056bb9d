import Core
import Files

/// `backbeam.images`: the resizing of downloaded images (§5.3.5, §10). Every key has the spec's default.
public struct ImageSettings: Sendable, Equatable {
    /// Where resized variants are cached; nil: `backbeam-images` in the data directory.
    public var directory: String?
    /// The most bytes the cached variants take together (LRU beyond): 1 GiB.
    public var cacheBytes = ImageVariants.Configuration.defaultCacheBytes
    /// The most pixels an image's header may declare before it is refused with `ImageTooLarge`: 50,000,000.
    public var maxPixels = ImageVariants.Configuration.defaultMaxPixels
    /// Requested sides are clamped to this: 4096.
    public var maxSide = ResizeRequest.defaultMaxSide
    /// Images decoded at once; 0: one per CPU.
    public var workers = 0
    /// How long a resize waits for a worker before 503 `ServiceUnavailable`: 60 s.
    public var waitSeconds = 60
    /// Bytes of small cached variants (up to 64 KiB each) also held in memory, served without opening a
    /// file: 8 MiB; 0: none.
    public var memoryBytes = ImageVariants.Configuration.defaultMemoryBytes

    /// The defaults.
    public init() {}

    static let knownKeys: Set<String> = ["directory", "cacheBytes", "maxPixels", "maxSide", "workers", "waitSeconds",
                                          "memoryBytes"]

    /// Reads `backbeam.images`.
    init(_ section: ConfigSection) throws {
        try section.rejectUnknownKeys(Self.knownKeys)
        directory = try section.string("directory")
        cacheBytes = try section.int("cacheBytes", cacheBytes, min: 0)
        maxPixels = try section.int("maxPixels", maxPixels, min: 1)
        maxSide = try section.int("maxSide", maxSide, min: 1, max: ResizeRequest.largestMaxSide)
        workers = try section.int("workers", 0, min: 0, max: 1024)
        waitSeconds = try section.int("waitSeconds", 60, min: 1, max: 3600)
        memoryBytes = try section.int("memoryBytes", memoryBytes, min: 0, max: 1 << 30)
    }

    /// The `ImageVariants` settings, with the cache in `directory` or else in `defaultDirectory`.
    func variantsConfiguration(defaultDirectory: String) -> ImageVariants.Configuration {
        var configuration = ImageVariants.Configuration(directory: directory ?? defaultDirectory, cacheBytes: cacheBytes,
                                                        maxPixels: maxPixels, maxSide: maxSide,
                                                        queueWait: .seconds(waitSeconds), memoryBytes: memoryBytes)
        if workers > 0 { configuration.workers = workers }
        return configuration
    }
}
