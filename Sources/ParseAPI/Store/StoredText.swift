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
    /// The row's text columns: `SQLiteTransaction.objectColumns`, in that order, starting at column `first`
    /// (read by position; looking six names up in every row of a query showed in profiles).
    init(row: Row, first: Int = 0) {
        className = row[first].string ?? ""
        objectId = row[first + 1].string ?? ""
        data = Array((row[first + 2].string ?? "{}").utf8)
        acl = row[first + 3].string.map { Array($0.utf8) }
        createdAt = row[first + 4].string ?? ""
        updatedAt = row[first + 5].string ?? ""
    }

    /// The same columns straight off the statement: data and ACL are copied as bytes, never made strings.
    init(columns row: ColumnReader, first: Int = 0) {
        className = row.string(first) ?? ""
        objectId = row.string(first + 1) ?? ""
        data = row.bytes(first + 2) ?? Array("{}".utf8)
        acl = row.bytes(first + 3)
        createdAt = row.string(first + 4) ?? ""
        updatedAt = row.string(first + 5) ?? ""
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
