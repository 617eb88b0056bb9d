/// Defaults of the Parse API that other parts (App, docs) refer to.
public enum ParseDefaults {
    /// Where the Parse API is mounted unless `parse.mountPath` says otherwise.
    public static let mountPath = "/parse"
}
