/// Defaults of the Datastore API that other parts (App, docs) refer to.
public enum DatastoreDefaults {
    /// The two root prefixes the Dropbox clients use; identical in every respect.
    public static let prefixes = ["/1/datastores", "/r5/datastores"]
}
