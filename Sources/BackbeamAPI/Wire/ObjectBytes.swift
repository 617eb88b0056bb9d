import Core

/// Writes stored objects as the object JSON of §4.4 straight from their stored members: `type`,
/// `created_at`, `updated_at`, the value fields, the to-one references (unjoined `{"id","type"}`, or the
/// bare id when joined), the joined to-many relationships, then the `login_*` keys of users. The members
/// were rendered when the object was written (with `ObjectEncoder.encodeValue`), so a read copies bytes.
public enum ObjectBytes {
    /// Appends `"<id>":{...}` for `object`.
    public static func appendMember(_ object: ResponseObject, to out: inout [UInt8]) {
        appendString(object.record.id, to: &out)
        out.append(UInt8(ascii: ":"))
        appendObject(object, to: &out)
    }

    /// Appends `"<id>":{...}` for an object read straight from a row: the stored parts as SQLite holds
    /// them (no copies into a record), `joined` the to-one fields to write as bare ids.
    static func appendMember(id: UnsafeBufferPointer<UInt8>, entity: UnsafeBufferPointer<UInt8>, createdAt: Int64,
                             updatedAt: Int64, vals: UnsafeBufferPointer<UInt8>?, refs: UnsafeBufferPointer<UInt8>?,
                             login: UnsafeBufferPointer<UInt8>?, joined: [String], to out: inout [UInt8]) {
        JSON.appendQuoted(utf8: id, to: &out)
        out.append(contentsOf: ":{\"type\":".utf8)
        JSON.appendQuoted(utf8: entity, to: &out)
        out.append(contentsOf: ",\"created_at\":".utf8)
        appendInt(createdAt, to: &out)
        out.append(contentsOf: ",\"updated_at\":".utf8)
        appendInt(updatedAt, to: &out)
        if let vals, !vals.isEmpty {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: vals)
        }
        if let refs, !refs.isEmpty {
            var first = false
            ReferenceMembers.render(refs, joined: joined, into: &out, first: &first)
        }
        if let login, !login.isEmpty {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: login)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends the object's JSON.
    public static func appendObject(_ object: ResponseObject, to out: inout [UInt8]) {
        let record = object.record
        out.append(contentsOf: "{\"type\":".utf8)
        appendString(record.entity, to: &out)
        out.append(contentsOf: ",\"created_at\":".utf8)
        appendInt(record.createdAt, to: &out)
        out.append(contentsOf: ",\"updated_at\":".utf8)
        appendInt(record.updatedAt, to: &out)
        if !record.vals.isEmpty {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: record.vals)
        }
        var first = false
        ReferenceMembers.render(record.refs, joined: object.joinedToOne, into: &out, first: &first)
        for joined in object.toMany {
            out.append(UInt8(ascii: ","))
            appendString(joined.field + "#r", to: &out)
            out.append(contentsOf: ":{\"result\":[".utf8)
            for (i, id) in joined.result.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(id, to: &out)
            }
            out.append(contentsOf: "],\"count\":".utf8)
            appendInt(Int64(joined.count), to: &out)
            out.append(UInt8(ascii: "}"))
        }
        if !record.login.isEmpty {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: record.login)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `"objects":{...}` with every object of `page`: the members rendered while the rows were read
    /// when the store did so, else each object's.
    public static func appendObjects(_ objects: [ResponseObject], rendered: [UInt8]? = nil, to out: inout [UInt8]) {
        out.append(contentsOf: "\"objects\":{".utf8)
        if let rendered {
            out.append(contentsOf: rendered)
        } else {
            for (i, object) in objects.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendMember(object, to: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string (ids and entity names need no escaping, but any text is escaped correctly).
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        var copy = text
        copy.withUTF8 { JSON.appendQuoted(utf8: $0, to: &out) }
    }

    /// A decimal integer, written digit by digit (every object carries two 13-digit times, and making a
    /// `String` of each cost an allocation per number). The digits are appended as one contiguous buffer:
    /// appending a slice of the digit buffer went element by element (about 400 instructions per number).
    public static func appendInt(_ value: Int64, to out: inout [UInt8]) {
        if value >= 0 && value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            // UInt64 has at most 20 decimal digits: the buffer never overflows.
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }
}

/// The success bodies of §5 written from store results (the JSON-object forms are `ResponseBodies`).
public enum PageBodies {
    /// `{"status":"Success","id":..,"objects":{..}}` (+ `auth` when a session was issued).
    public static func object(id: String, objects: [ResponseObject], rendered: [UInt8]? = nil, auth: String? = nil,
                              status: BackbeamStatus = .success) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + (rendered?.count ?? objects.reduce(0) { $0 + $1.record.vals.count + $1.record.refs.count }))
        out.append(contentsOf: "{\"status\":".utf8)
        ObjectBytes.appendString(status.rawValue, to: &out)
        out.append(contentsOf: ",\"id\":".utf8)
        ObjectBytes.appendString(id, to: &out)
        out.append(UInt8(ascii: ","))
        ObjectBytes.appendObjects(objects, rendered: rendered, to: &out)
        if let auth {
            out.append(contentsOf: ",\"auth\":".utf8)
            ObjectBytes.appendString(auth, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"status":"Success","objects":{..},"ids":[..],"count":N}` (+ `distances` for near queries).
    public static func list(_ page: ObjectPage) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + (page.renderedIDs?.count ?? 0) + (page.renderedObjects?.count
                                       ?? page.objects.reduce(0) { $0 + 64 + $1.record.vals.count + $1.record.refs.count }))
        out.append(contentsOf: "{\"status\":\"Success\",".utf8)
        ObjectBytes.appendObjects(page.objects, rendered: page.renderedObjects, to: &out)
        out.append(contentsOf: ",\"ids\":[".utf8)
        if let rendered = page.renderedIDs {
            out.append(contentsOf: rendered)
        } else {
            for (i, id) in page.ids.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                ObjectBytes.appendString(id, to: &out)
            }
        }
        out.append(contentsOf: "],\"count\":".utf8)
        ObjectBytes.appendInt(Int64(page.count), to: &out)
        if let distances = page.distances {
            out.append(contentsOf: ",\"distances\":[".utf8)
            for (i, d) in distances.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                ObjectBytes.appendInt(Int64(d), to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
