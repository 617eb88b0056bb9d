import Core

/// `list_datastores` items and the list token (§6.1, §8.5).
enum ListWire {
    /// Token of an empty list: SHA-256 of `[]`.
    static let emptyToken = "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"

    /// Writes the `datastores` array. With `canonical`, keys sorted and nested `info` keys sorted too;
    /// item keys are written in sorted order either way, so the response is the canonical form.
    static func writeItems(_ items: [ListItem], into w: inout JSONWriter, canonical: Bool) {
        w.array(items) { w, item in
            w.raw("{")
            w.key("dsid", first: true); w.string(item.dsid)
            w.key("handle", first: false); w.string(item.handle)
            if let info = item.infoJSON {
                w.key("info", first: false)
                if canonical, let parsed = try? JSONParser.parse(info, options: StoredJSON.options) {
                    var sorted = JSONWriter(sortKeys: true)
                    sorted.value(parsed)
                    w.raw(sorted.text)
                } else {
                    w.raw(info)
                }
            }
            w.key("rev", first: false); w.int(item.rev)
            if let role = item.role { w.key("role", first: false); w.int(role) }
            w.raw("}")
        }
    }

    /// Lowercase hex SHA-256 of the canonical serialisation of the list.
    static func token(_ items: [ListItem]) -> String {
        var w = JSONWriter(sortKeys: true)
        writeItems(items, into: &w, canonical: true)
        return Hex.encode(Crypto.sha256(w.bytes))
    }

    /// `{"datastores": [...], "token": "..."}` body (also the `list_datastores` value inside await answers).
    static func writeList(_ items: [ListItem], token: String, into w: inout JSONWriter) {
        w.raw("{")
        w.key("datastores", first: true)
        writeItems(items, into: &w, canonical: false)
        w.key("token", first: false)
        w.string(token)
        w.raw("}")
    }
}

/// Deltas and snapshot rows, with stored JSON spliced in verbatim.
enum DeltaWire {
    /// `[{"rev": r, "changes": [...], "nonce": "..."}, ...]`
    static func writeDeltas(_ deltas: [StoredDelta], into w: inout JSONWriter) {
        w.array(deltas) { w, delta in
            w.raw("{")
            w.key("rev", first: true); w.int(delta.rev)
            w.key("changes", first: false); w.raw(delta.changesJSON)
            w.key("nonce", first: false); w.string(delta.nonce)
            w.raw("}")
        }
    }

    /// `[{"tid": ..., "rowid": ..., "data": {...}}, ...]`
    static func writeRows(_ rows: [SnapshotRow], into w: inout JSONWriter) {
        w.array(rows) { w, row in
            w.raw("{")
            w.key("tid", first: true); w.string(row.tid)
            w.key("rowid", first: false); w.string(row.rid)
            w.key("data", first: false); w.raw(row.fieldsJSON)
            w.raw("}")
        }
    }
}
