import Core

/// "dbase64": URL-safe base64 without `=` padding, as the datastore protocol uses for bytes values,
/// handles, tokens and shareable dsids.
public enum DBase64 {
    /// Encodes bytes: `00 01 FF` → `AAH_` (Core's URL-safe base64, unpadded).
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64.encodeURLSafe(bytes, padded: false)
    }

    /// True when `text` uses only `[A-Za-z0-9_-]` and its length is not ≡ 1 (mod 4); the empty string is valid.
    public static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count % 4 != 1 else { return false }
        return utf8.allSatisfy(isAlphabet)
    }

    /// The exact number of bytes a valid dbase64 text decodes to (the size the datastore limits count).
    public static func decodedLength(ofValid text: String) -> Int {
        let length = text.utf8.count
        // Each full quad carries 3 bytes; a trailing 2 or 3 characters carry 1 or 2 bytes.
        let tail = length % 4
        return (length / 4) * 3 + (tail == 2 ? 1 : tail == 3 ? 2 : 0)
    }

    /// Whether one byte belongs to the dbase64 alphabet.
    static func isAlphabet(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
    }
}
