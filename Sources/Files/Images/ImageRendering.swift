/// Makes one planned variant of an image file. `ImageVariants` calls it on its bounded worker pool;
/// the libvips implementation is `VipsRenderer`, and tests substitute counting or blocking ones.
public protocol ImageRendering: Sendable {
    /// Decodes `source` (whose header is `header`), applies `plan` to the upright picture and returns the
    /// result encoded in the source's format. Throws when the source cannot be decoded.
    func render(source: String, header: ImageHeader, plan: ResizePlan) throws(ImageRenderError) -> [UInt8]
}

/// Why a variant could not be made.
public struct ImageRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: String, Sendable, Equatable {
        /// The image is truncated, corrupt or otherwise not decodable.
        case decode
        /// The decoder's own reading of the header declares more pixels than allowed.
        case tooLarge
        /// The decoder sees another size or orientation than the header said.
        case mismatch
        /// The variant could not be stored.
        case save
        /// The image library could not be started.
        case unavailable
    }

    /// What went wrong.
    public let kind: Kind
    /// The library's explanation, for the log.
    public let message: String

    public init(_ kind: Kind, _ message: String = "") {
        self.kind = kind
        self.message = message
    }

    public var description: String { message.isEmpty ? kind.rawValue : "\(kind.rawValue): \(message)" }
}
