import Core
import Logging
import Synchronization

/// Resized variants of stored images (the Backbeam spec's §5.3.5, usable by any API): a request is read
/// by `ResizeRequest`, planned from the image's header by `ResizePlan`, rendered by an `ImageRendering`
/// (libvips by default) and kept in an on-disk LRU cache.
///
/// For each request `variant` answers, in order:
/// 1. nothing (valid) asked → `.original`;
/// 2. the variant is cached → its file (a dictionary lookup, no decoding, no file access);
/// 3. otherwise one caller per variant at a time (single flight; the others wait for its result):
///    the header is read (not JPEG, PNG or GIF, or unreadable → `.original`); more than `maxPixels`
///    declared → `imageTooLarge`, before anything is decoded; the plan is made (the original's size or
///    an upscale a fit forbids → `.original`); the render is queued for one of the image workers
///    (not started within `queueWait` → `busy`) and its result stored in the cache. A decoding failure gives `.original`, caches nothing, and
///    is remembered so the same image is not decoded again.
///
/// Thread-safe; `variant` blocks its caller while it waits and renders, like a database call.
public final class ImageVariants: Sendable {
    public let configuration: Configuration
    let renderer: any ImageRendering
    let cache: VariantCache
    let flights = SingleFlight<VariantName, Result<VariantResult, ImageVariantError>>()
    let workers: ImageWorkers
    let failed: Locked<FailureMemory>
    let counters = Counters()
    let logger: Logger

    /// Opens (creating it when needed) the cache in `configuration.directory`, indexing the variants a
    /// previous run left there. `renderer` defaults to libvips with `configuration`'s quality and cap.
    public init(configuration: Configuration, renderer: (any ImageRendering)? = nil,
                logger: Logger = Logger(label: "quartet.files.images")) throws {
        self.configuration = configuration
        self.renderer = renderer ?? VipsRenderer(jpegQuality: configuration.jpegQuality, maxPixels: configuration.maxPixels)
        cache = try VariantCache(directory: configuration.directory, limit: configuration.cacheBytes,
                                 grace: configuration.evictionGrace, memoryLimit: configuration.memoryBytes,
                                 memoryEntryLimit: configuration.memoryEntryBytes)
        workers = ImageWorkers(count: configuration.workers)
        failed = Locked(FailureMemory(capacity: configuration.rememberedFailures))
        self.logger = logger
    }

    deinit {
        workers.shutdown()
    }

    /// The answer for `request` on the image in the file at `source`, whose content `key` names.
    public func variant(of source: String, key: VariantKey, request: ResizeRequest) throws(ImageVariantError) -> VariantResult {
        if case .original = request.mode { return original() }
        let (name, cached) = cache.lookup(VariantIdentity(key: key, mode: request.mode), request: request)
        if let entry = cached {
            counters.hits.add(1, ordering: .relaxed)
            // A small variant asked for again is read once more, to be held in memory for `cachedContents`.
            if cache.wantsContents(of: name, entry), let bytes = VariantFiles.read(entry.path, size: entry.size) {
                cache.keep(bytes, of: name, entry)
            }
            return .variant(path: entry.path, length: entry.size, mimeType: entry.format.mimeType)
        }
        if failed.withLock({ $0.contains(name) }) { return original() }
        let (outcome, _) = flights.run(name) { generate(source: source, name: name, request: request) }
        return try outcome.get()
    }

    /// The bytes of `request`'s variant of the content `key` names when they are held in memory, for a caller
    /// that must not wait or touch the disk (an HTTP I/O thread): nil for anything else, which `variant`
    /// answers. A small variant is held in memory once `variant` found it cached or made it; it leaves with
    /// its file's cache entry, and `key` names a version of the content, so a new version asks for another.
    public func cachedContents(key: VariantKey, request: ResizeRequest) -> CachedVariant? {
        if case .original = request.mode { return nil }
        guard let (bytes, format) = cache.contents(VariantIdentity(key: key, mode: request.mode)) else { return nil }
        counters.hits.add(1, ordering: .relaxed)
        return CachedVariant(bytes: bytes, mimeType: format.mimeType)
    }

    /// Bytes of variants held in memory.
    public var memoryBytes: Int { cache.memoryBytes }

    /// Counters since start-up.
    public var statistics: Statistics { counters.snapshot() }

    /// Bytes the cached variants take.
    public var cachedBytes: Int { cache.bytes }

    /// Number of cached variants.
    public var cachedCount: Int { cache.count }

    private func original() -> VariantResult {
        counters.originals.add(1, ordering: .relaxed)
        return .original
    }

    /// The single flight's work for one missing variant.
    private func generate(source: String, name: VariantName, request: ResizeRequest) -> Result<VariantResult, ImageVariantError> {
        // A run that finished just before this one started has cached the variant.
        if let entry = cache.lookup(name) {
            counters.hits.add(1, ordering: .relaxed)
            return .success(.variant(path: entry.path, length: entry.size, mimeType: entry.format.mimeType))
        }
        cache.reap()
        guard let header = ImageHeader.read(path: source) else { return .success(original()) }
        let limit = configuration.maxPixels
        guard header.pixelCount <= limit else { return tooLarge(header.pixelCount) }
        guard let plan = ResizePlan.make(for: request, width: header.width, height: header.height) else {
            return .success(original())
        }
        // An upscaling cover or 0xH / Wx0 of an extreme aspect ratio could ask for a huge intermediate
        // picture; it is held to the same cap as the source.
        let (scaledPixels, overflow) = plan.scaledWidth.multipliedReportingOverflow(by: plan.scaledHeight)
        guard !overflow, scaledPixels <= limit else { return tooLarge(overflow ? Int.max : scaledPixels) }
        let renderer = self.renderer
        guard let rendered = workers.run(timeout: configuration.queueWait, {
            Result { () throws(ImageRenderError) in try renderer.render(source: source, header: header, plan: plan) }
        }) else {
            counters.busy.add(1, ordering: .relaxed)
            logger.warning("image workers busy for the whole queue wait", metadata: ["variant": "\(name.hex)"])
            return .failure(.busy)
        }
        let bytes: [UInt8]
        switch rendered {
        case .success(let output): bytes = output
        case .failure(let error): return renderFailed(error, name: name, header: header)
        }
        do {
            let entry = try cache.store(bytes, key: name, format: header.format)
            cache.keep(bytes, of: name, entry)
            counters.rendered.add(1, ordering: .relaxed)
            return .success(.variant(path: entry.path, length: entry.size, mimeType: entry.format.mimeType))
        } catch {
            logger.error("image variant not stored", metadata: ["variant": "\(name.hex)", "error": "\(error)"])
            counters.failures.add(1, ordering: .relaxed)
            return .success(original())
        }
    }

    private func tooLarge(_ pixels: Int) -> Result<VariantResult, ImageVariantError> {
        counters.tooLarge.add(1, ordering: .relaxed)
        return .failure(.imageTooLarge(pixels: pixels, limit: configuration.maxPixels))
    }

    /// A render that failed. Decoding failures come from the image itself: the original is served and
    /// the failure remembered, so the image is not decoded again for this variant. libvips' own header
    /// reading refusing the size is `imageTooLarge` as ours would be. A missing libvips serves originals
    /// and is logged once.
    private func renderFailed(_ error: ImageRenderError, name: VariantName, header: ImageHeader) -> Result<VariantResult, ImageVariantError> {
        counters.failures.add(1, ordering: .relaxed)
        switch error.kind {
        case .decode, .mismatch, .save:
            logger.notice("image variant not made, serving the original",
                          metadata: ["variant": "\(name.hex)", "format": "\(header.format.rawValue)",
                                     "size": "\(header.storedWidth)x\(header.storedHeight)", "error": "\(error)"])
            if error.kind != .save { failed.withLock { $0.insert(name) } }
            return .success(original())
        case .tooLarge:
            return tooLarge(header.pixelCount)
        case .unavailable:
            if !counters.reportedUnavailable.exchange(true, ordering: .relaxed) {
                logger.error("images are served unresized: libvips is not available", metadata: ["error": "\(error)"])
            }
            return .success(original())
        }
    }
}

/// The names of variants whose source failed to decode, the oldest forgotten first.
struct FailureMemory: Sendable {
    private var names: Set<VariantName> = []
    private var order: [VariantName] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    func contains(_ name: VariantName) -> Bool { names.contains(name) }

    mutating func insert(_ name: VariantName) {
        guard capacity > 0, !names.contains(name) else { return }
        if names.count >= capacity, start < order.count {
            names.remove(order[start])
            start += 1
            // Compact now and then so the array does not grow without bound.
            if start >= capacity {
                order.removeFirst(start)
                start = 0
            }
        }
        names.insert(name)
        order.append(name)
    }
}

/// The counters behind `ImageVariants.Statistics`, atomics so that a cache hit takes no lock for them.
final class Counters: Sendable {
    let hits = Atomic<Int>(0)
    let rendered = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    let originals = Atomic<Int>(0)
    let tooLarge = Atomic<Int>(0)
    let busy = Atomic<Int>(0)
    /// Whether a missing libvips was logged already.
    let reportedUnavailable = Atomic<Bool>(false)

    func snapshot() -> ImageVariants.Statistics {
        var statistics = ImageVariants.Statistics()
        statistics.hits = hits.load(ordering: .relaxed)
        statistics.rendered = rendered.load(ordering: .relaxed)
        statistics.failures = failures.load(ordering: .relaxed)
        statistics.originals = originals.load(ordering: .relaxed)
        statistics.tooLarge = tooLarge.load(ordering: .relaxed)
        statistics.busy = busy.load(ordering: .relaxed)
        return statistics
    }
}
