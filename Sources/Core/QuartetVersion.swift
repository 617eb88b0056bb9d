/// The product's version, reported by `quartet version`, the `Server` header and `/metrics`.
public enum QuartetVersion {
    /// Semantic version of this build.
    public static let string = "0.1.0"
}
