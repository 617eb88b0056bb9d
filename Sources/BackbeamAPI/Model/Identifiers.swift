/// Identifier rules of §4.1.
public enum Identifiers {
    /// Entity ids: `^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$` (Backbeam derived them from display names).
    public static func isEntityID(_ s: String) -> Bool {
        check(s, maxLength: 64) { isAlphanumeric($0) || $0 == UInt8(ascii: "_") } rest: { isIDByte($0) }
    }

    /// Field ids: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$` (BQL identifiers; `-` allowed as in `last-event`).
    public static func isFieldID(_ s: String) -> Bool {
        check(s, maxLength: 64) { isLetter($0) || $0 == UInt8(ascii: "_") } rest: { isIDByte($0) }
    }

    /// Incoming object ids: `^[A-Za-z0-9_-]{1,64}$`.
    public static func isObjectID(_ s: String) -> Bool {
        check(s, maxLength: 64, first: isIDByte, rest: isIDByte)
    }

    /// Field ids rejected in commands (§4.1): `this`, `created_at`, `updated_at` have a BQL meaning, and
    /// Android reads any response key starting with `login_` as login data.
    public static func isReservedFieldID(_ s: String) -> Bool {
        s == "this" || s == "created_at" || s == "updated_at" || s.utf8.starts(with: "login_".utf8)
    }

    /// The object id in a reference parameter: everything up to and including the last `/` is dropped,
    /// since the SDKs send objects as `<entity>/<id>` (§6.2); nil unless the rest is a valid object id.
    public static func objectID(fromReference value: String) -> String? {
        let bytes = value.utf8
        let id: String
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
            id = String(decoding: bytes[bytes.index(after: slash)...], as: UTF8.self)
        } else {
            id = value
        }
        return isObjectID(id) ? id : nil
    }

    private static func check(_ s: String, maxLength: Int, first: (UInt8) -> Bool, rest: (UInt8) -> Bool) -> Bool {
        // Over the string's contiguous bytes when it has them (native strings do): every request's
        // entity and object id pass here, and the generic walk of the UTF-8 view costs several times more.
        func scan<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
            guard let head = bytes.first, bytes.count <= maxLength, first(head) else { return false }
            for b in bytes.dropFirst() where !rest(b) { return false }
            return true
        }
        return s.utf8.withContiguousStorageIfAvailable { scan($0) } ?? scan(s.utf8)
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        isLetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }

    private static func isIDByte(_ b: UInt8) -> Bool {
        isAlphanumeric(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }
}
