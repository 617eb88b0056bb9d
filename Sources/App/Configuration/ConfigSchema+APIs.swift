import Core

extension ConfigSchema {
    /// Options of the API sections that the platform knows how to read from the environment and documents.
    /// Each API validates its own section when it starts.
    public static let apis: [ConfigOption] = []
}
