import Core
import Storage

/// One `parse_objects` row as stored: the data and ACL still JSON text. Most answers render objects
/// that need no change on the way out (`PlainObjectBytes`), and parsing their text into values only to
/// write the same text again was most of the cost of a query's twenty objects.
struct StoredText: Sendable {
    var className: String
    var objectId: String
    /// `data` as stored (serialized by this server), as UTF-8 bytes.
    var data: [UInt8]
    /// The ACL as stored, nil for none.
    var acl: [UInt8]?
    var createdAt: String
    var updatedAt: String
}

extension StoredText {
    /// The row's columns, `SQLiteTransaction.objectColumns` in that order from column `first`, straight off
    /// the statement (read by position; looking six names up in every row of a query showed in profiles).
    /// Data and ACL are copied as bytes, never made strings.
    init(columns row: ColumnReader, first: Int = 0) {
        className = row.string(first) ?? ""
        objectId = row.string(first + 1) ?? ""
        data = row.bytes(first + 2) ?? Array("{}".utf8)
        acl = row.bytes(first + 3)
        createdAt = row.string(first + 4) ?? ""
        updatedAt = row.string(first + 5) ?? ""
    }

    /// The ACL parsed (nil for none), without the data.
    func decodedACL() -> JSONObject? {
        guard let acl else { return nil }
        return try? JSONParser.parse(acl, options: StoredJSON.options).objectValue
    }

    /// The object with its data and ACL parsed.
    func decoded() throws -> StoredObject {
        guard let parsed = try? JSONParser.parse(data, options: StoredJSON.options).objectValue else {
            throw StorageError.corrupt("parse_objects.data is not a JSON object")
        }
        return StoredObject(className: className, objectId: objectId, data: parsed, acl: decodedACL(),
                            createdAt: createdAt, updatedAt: updatedAt)
    }
}
