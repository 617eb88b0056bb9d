import Foundation

extension ImageVariants {
    /// The settings of an `ImageVariants`. APIs read them from their own configuration keys (Backbeam:
    /// `backbeam.images.*`) and pass them in.
    public struct Configuration: Sendable, Equatable {
        /// The spec's pixel cap: 50 megapixels.
        public static let defaultMaxPixels = 50_000_000
        /// The spec's cache bound: 1 GiB.
        public static let defaultCacheBytes = 1 << 30
        /// Bytes of small variants also kept in memory: 8 MiB (4,000 thumbnails of 2 KB).
        public static let defaultMemoryBytes = 8 << 20
        /// The largest variant kept in memory: 64 KiB. A thumbnail is a few KB; larger variants are rarer and
        /// their sending costs more than opening their file.
        public static let defaultMemoryEntryBytes = 64 << 10

        /// Where the variant files live (created when missing); one `ImageVariants` per directory.
        public var directory: String
        /// The most bytes the cached variants may take together.
        public var cacheBytes: Int
        /// The most bytes of cached variants also held in memory, so that serving them opens no file (0: none).
        public var memoryBytes: Int
        /// The largest variant held in memory.
        public var memoryEntryBytes: Int
        /// The most pixels a header may declare, and a variant (before its crop) may have.
        public var maxPixels: Int
        /// The largest side a request may name.
        public var maxSide: Int
        /// How many images are decoded at once (the spec: one per CPU).
        public var workers: Int
        /// How long a request waits for a worker before `ImageVariantError.busy`.
        public var queueWait: Duration
        /// JPEG output quality.
        public var jpegQuality: Int
        /// How long an evicted file stays on disk for responses already given its path.
        public var evictionGrace: Duration
        /// How many variants that failed to decode are remembered, so that a broken or hostile image is
        /// not decoded again on every request for it.
        public var rememberedFailures: Int

        /// Settings with the spec's defaults: 1 GiB, 50 megapixels, sides up to 4096, one worker per
        /// CPU, 60 s queue wait, JPEG quality 85; evicted files stay 60 s; variants up to 64 KiB kept in
        /// memory up to 8 MiB.
        public init(directory: String, cacheBytes: Int = defaultCacheBytes, maxPixels: Int = defaultMaxPixels,
                    maxSide: Int = ResizeRequest.defaultMaxSide,
                    workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                    queueWait: Duration = .seconds(60), jpegQuality: Int = 85, evictionGrace: Duration = .seconds(60),
                    rememberedFailures: Int = 4096, memoryBytes: Int = defaultMemoryBytes,
                    memoryEntryBytes: Int = defaultMemoryEntryBytes) {
            self.directory = directory
            self.cacheBytes = cacheBytes
            self.memoryBytes = memoryBytes
            self.memoryEntryBytes = memoryEntryBytes
            self.maxPixels = maxPixels
            self.maxSide = maxSide
            self.workers = workers
            self.queueWait = queueWait
            self.jpegQuality = jpegQuality
            self.evictionGrace = evictionGrace
            self.rememberedFailures = rememberedFailures
        }
    }

    /// Counters since start-up.
    public struct Statistics: Sendable, Equatable {
        /// Requests answered from the cache.
        public var hits = 0
        /// Variants rendered and cached.
        public var rendered = 0
        /// Renders that failed (the original was served).
        public var failures = 0
        /// Answers of the original (callers sharing one single-flight answer count once).
        public var originals = 0
        /// Requests refused as too large.
        public var tooLarge = 0
        /// Requests that waited out the queue.
        public var busy = 0
    }
}
