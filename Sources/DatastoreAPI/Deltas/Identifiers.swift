import Core

/// The identifier grammars of the datastore protocol (dsids, table/record/field names, user names).
public enum Identifiers {
    /// Private dsid: `^[a-z0-9_-]([a-z0-9._-]{0,62}[a-z0-9_-])?$` (1–64 characters, no dot first or last).
    public static func isPrivateDsid(_ dsid: String) -> Bool {
        let bytes = Array(dsid.utf8)
        guard let first = bytes.first, let last = bytes.last, bytes.count <= 64 else { return false }
        func edge(_ c: UInt8) -> Bool { isLowerAlnum(c) || c == 0x5F || c == 0x2D }
        guard edge(first), edge(last) else { return false }
        return bytes.allSatisfy { edge($0) || $0 == 0x2E }
    }

    /// Shareable dsid: `^\.[A-Za-z0-9_-]{1,63}$`.
    public static func isShareableDsid(_ dsid: String) -> Bool {
        let bytes = Array(dsid.utf8)
        guard bytes.count >= 2, bytes.count <= 64, bytes.first == 0x2E else { return false }
        return bytes.dropFirst().allSatisfy(DBase64.isAlphabet)
    }

    /// Table IDs, record IDs and field names:
    /// `^([A-Za-z0-9_\-/.+=]{1,64}|:[A-Za-z0-9_\-/.+=]{1,63})$`.
    public static func isValidName(_ name: String) -> Bool {
        var bytes = Substring(name).utf8[...]
        if bytes.first == 0x3A {   // ":" marks names reserved for SDK use; one character fewer remains
            bytes = bytes.dropFirst()
            guard bytes.count >= 1, bytes.count <= 63 else { return false }
        } else {
            guard bytes.count >= 1, bytes.count <= 64 else { return false }
        }
        return bytes.allSatisfy { c in
            DBase64.isAlphabet(c) || c == 0x2F || c == 0x2E || c == 0x2B || c == 0x3D
        }
    }

    /// Datastore user names: `^[A-Za-z0-9._@-]{1,64}$`.
    public static func isValidUserName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        return bytes.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || isLowerAlnum(c) || c == 0x2E || c == 0x5F || c == 0x40 || c == 0x2D
        }
    }

    /// The shareable dsid a key stands for: `"." + dbase64(SHA-256(key bytes))`.
    public static func shareableDsid(forKey key: String) -> String {
        "." + DBase64.encode(Crypto.sha256(Array(key.utf8)))
    }

    /// The Python SDK's client-side token check `\A[-_~/A-Za-z0-9\.\+]+=*\Z`.
    public static func isClientAcceptableToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        var end = bytes.count
        while end > 0 && bytes[end - 1] == 0x3D { end -= 1 }
        guard end > 0 else { return false }
        return bytes[0..<end].allSatisfy { c in
            DBase64.isAlphabet(c) || c == 0x7E || c == 0x2F || c == 0x2E || c == 0x2B
        }
    }

    /// A canonical non-negative decimal int64: `0` or `[1-9][0-9]*` within range (no sign, no leading zeros).
    public static func parseCanonicalRev(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard first != 0x30 || bytes.count == 1 else { return nil }
        return Int64(text)
    }

    private static func isLowerAlnum(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) }
}
