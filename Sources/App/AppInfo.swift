import Core

/// Facts about the running build that the CLI and the operational endpoints print.
public enum AppInfo {
    /// "Quartet <version>", the first word of the start-up line.
    public static var banner: String { "Quartet \(QuartetVersion.string)" }
}
