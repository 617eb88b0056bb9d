import Core
import Storage

/// One `parse_objects` row as stored: the data and ACL still JSON text. Most answers render objects
/// that need no change on the way out (`PlainObjectBytes`), and parsing their text into values only to
/// write the same text again was most of the cost of a query's twenty objects.
struct StoredText: Sendable {
    var className: String
    var objectId: String
    /// `data` as stored (serialized by this server).
    var data: String
    /// The ACL as stored, nil for none.
    var acl: String?
    var createdAt: String
    var updatedAt: String
}

extension StoredText {
    /// The row's text columns: `SQLiteTransaction.objectColumns`, in that order, starting at column `first`
    /// (read by position; looking six names up in every row of a query showed in profiles).
    init(row: Row, first: Int = 0) {
        className = row[first].string ?? ""
        objectId = row[first + 1].string ?? ""
        data = row[first + 2].string ?? "{}"
        acl = row[first + 3].string
        createdAt = row[first + 4].string ?? ""
        updatedAt = row[first + 5].string ?? ""
    }

    /// The object with its data and ACL parsed.
    func decoded() throws -> StoredObject {
        guard let parsed = try? JSONParser.parse(data, options: StoredJSON.options).objectValue else {
            throw StorageError.corrupt("parse_objects.data is not a JSON object")
        }
        var aclObject: JSONObject?
        if let acl, let value = try? JSONParser.parse(acl, options: StoredJSON.options).objectValue { aclObject = value }
        return StoredObject(className: className, objectId: objectId, data: parsed, acl: aclObject,
                            createdAt: createdAt, updatedAt: updatedAt)
    }
}
