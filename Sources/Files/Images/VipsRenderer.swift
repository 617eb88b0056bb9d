import CVips

/// `ImageRendering` with libvips: shrink-on-load for JPEG, sequential decoding, EXIF orientation, the
/// first GIF frame, output in the input's format (JPEG at `jpegQuality`), metadata stripped. libvips
/// is started once per process, with its operation cache off and `threadsPerImage` threads per pipeline.
public struct VipsRenderer: ImageRendering {
    /// JPEG output quality (the spec's 85).
    public let jpegQuality: Int
    /// Header pixel cap libvips checks again before decoding.
    public let maxPixels: Int
    /// libvips threads per image.
    public let threadsPerImage: Int

    /// A renderer. libvips is loaded by the first render, not here, so a daemon that never resizes an
    /// image never maps it. `threadsPerImage` applies to the first start in the process only (0 keeps
    /// libvips' default of one per core); one suits a server, whose worker pool already runs one image
    /// per core: more threads per image only add memory.
    public init(jpegQuality: Int = 85, maxPixels: Int = ImageVariants.Configuration.defaultMaxPixels,
                threadsPerImage: Int = 1) {
        self.jpegQuality = min(max(jpegQuality, 1), 100)
        self.maxPixels = maxPixels
        self.threadsPerImage = threadsPerImage
    }

    public func render(source: String, header: ImageHeader, plan: ResizePlan) throws(ImageRenderError) -> [UInt8] {
        guard Vips.start(concurrency: threadsPerImage) else {
            throw ImageRenderError(.unavailable, Vips.takeError())
        }
        var options = cvips_render_options()
        options.format = Vips.code(header.format)
        options.expected_width = Int32(clamping: header.storedWidth)
        options.expected_height = Int32(clamping: header.storedHeight)
        options.expected_orientation = Int32(clamping: header.orientation)
        options.max_pixels = Int64(maxPixels)
        options.scaled_width = Int32(clamping: plan.scaledWidth)
        options.scaled_height = Int32(clamping: plan.scaledHeight)
        if let crop = plan.crop {
            options.crop_left = Int32(clamping: crop.left)
            options.crop_top = Int32(clamping: crop.top)
            options.crop_width = Int32(clamping: crop.width)
            options.crop_height = Int32(clamping: crop.height)
        }
        options.jpeg_quality = Int32(jpegQuality)
        var width: Int32 = 0, height: Int32 = 0
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let result = cvips_render(source, &options, &buffer, &length, &width, &height)
        defer { cvips_free_buffer(buffer) }
        let message = Vips.takeError()
        switch Int(result) {
        case CVIPS_OK:
            guard let buffer, Int(width) == plan.width, Int(height) == plan.height else {
                throw ImageRenderError(.mismatch, "made \(width)x\(height), planned \(plan.width)x\(plan.height)")
            }
            return Array(UnsafeRawBufferPointer(start: buffer, count: length))
        case CVIPS_ERROR_TOO_LARGE: throw ImageRenderError(.tooLarge, message)
        case CVIPS_ERROR_MISMATCH: throw ImageRenderError(.mismatch, message)
        case CVIPS_ERROR_INIT: throw ImageRenderError(.unavailable, message)
        default: throw ImageRenderError(.decode, message)
        }
    }
}

/// The process-wide libvips start and small helpers over the C shim.
enum Vips {
    /// Starts libvips once (later calls return the first outcome). True when it is usable.
    static func start(concurrency: Int) -> Bool {
        Int(cvips_init(Int32(clamping: concurrency))) == CVIPS_OK
    }

    /// The shim's code for a format.
    static func code(_ format: ImageFormat) -> Int32 {
        switch format {
        case .jpeg: return Int32(CVIPS_FORMAT_JPEG)
        case .png: return Int32(CVIPS_FORMAT_PNG)
        case .gif: return Int32(CVIPS_FORMAT_GIF)
        }
    }

    /// libvips' pending error text (shared by all threads, so possibly another image's), cleared.
    static func takeError() -> String {
        guard let text = cvips_error_take() else { return "" }
        defer { cvips_free_text(text) }
        return String(cString: text).trimmingTrailingNewlines()
    }

    /// libvips' own reading of a file's header; nil when its loader for `format` refuses the file.
    static func header(path: String, format: ImageFormat) -> (width: Int, height: Int, orientation: Int, pages: Int)? {
        guard start(concurrency: 1) else { return nil }
        var header = cvips_header()
        let result = cvips_header_read(path, code(format), &header)
        _ = takeError()
        guard Int(result) == CVIPS_OK else { return nil }
        return (Int(header.width), Int(header.height), Int(header.orientation), Int(header.pages))
    }

    /// The upright pixel at (x, y) of a small image file, for checking variants; nil when undecodable.
    static func pixel(path: String, format: ImageFormat, x: Int, y: Int) -> [Double]? {
        guard start(concurrency: 1) else { return nil }
        var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var bands: Int32 = 0
        let result = withUnsafeMutablePointer(to: &values) { pointer in
            pointer.withMemoryRebound(to: Double.self, capacity: 4) {
                cvips_pixel(path, code(format), Int32(clamping: x), Int32(clamping: y), $0, &bands)
            }
        }
        _ = takeError()
        guard Int(result) == CVIPS_OK else { return nil }
        return Array([values.0, values.1, values.2, values.3].prefix(Int(bands)))
    }

    /// The most pixel memory libvips has held at once in this process, in bytes.
    static var trackedHighWater: Int { Int(cvips_tracked_highwater()) }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
