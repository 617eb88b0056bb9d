import Core

/// CouchDB's `AuthSession` cookie (spec §2.7.3, `couch_httpd_auth:cookie_auth_cookie/4`): base64url without
/// padding of `{name}:{T}:{H}`, where T is the issue time in Unix seconds as uppercase hex and H the raw
/// 32-byte HMAC-SHA256 of `{name}:{T}` keyed with `server_secret ‖ user_salt`. Stateless: the salt changes
/// with the password, which ends every session of that user.
enum SessionCookie {
    /// The cookie's name.
    static let name = "AuthSession"

    /// A token for `user` issued at `time` (Unix seconds).
    static func token(user: String, time: Int64, key: [UInt8]) -> String {
        let message = Array("\(user):\(String(time, radix: 16, uppercase: true))".utf8)
        return Base64.encodeURLSafe(message + [UInt8(ascii: ":")] + Crypto.hmacSHA256(key: key, data: message))
    }

    /// The user and issue time of a well-formed token, before any check of its HMAC.
    struct Parsed {
        let user: String
        let time: Int64
        /// `{name}:{T}`, the HMAC's input.
        let message: [UInt8]
        let mac: [UInt8]
    }

    /// Splits a token; nil when it is not base64url of `name:HEX:mac` (such cookies are ignored, §2.7.2).
    static func parse(_ token: String) -> Parsed? {
        guard !token.isEmpty, token.utf8.count <= 4096, let bytes = Base64.decodeURLSafe(token) else { return nil }
        // The MAC is raw bytes and may itself contain ':', so only the first two colons split.
        guard let first = bytes.firstIndex(of: UInt8(ascii: ":")),
              let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let hex = bytes[(first + 1)..<second]
        guard !hex.isEmpty, hex.count <= 15,
              let time = Int64(String(decoding: hex, as: UTF8.self), radix: 16), time >= 0 else { return nil }
        let user = String(decoding: bytes[..<first], as: UTF8.self)
        guard user.utf8.elementsEqual(bytes[..<first]) else { return nil }
        return Parsed(user: user, time: time, message: Array(bytes[..<second]), mac: Array(bytes[(second + 1)...]))
    }

    /// True when `parsed` carries the HMAC `key` gives its message (compared in constant time).
    static func verify(_ parsed: Parsed, key: [UInt8]) -> Bool {
        Crypto.constantTimeEquals(Crypto.hmacSHA256(key: key, data: parsed.message), parsed.mac)
    }

    /// The value of cookie `name` in a `Cookie` header (`a=b; AuthSession=x`), or nil.
    static func value(named name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " || $0 == "\t" }
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            return String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces()
        }
        return nil
    }

    /// `Set-Cookie` for a new token (§2.7.3): `Path=/` so that a cookie obtained at the host-root `/_session`
    /// also covers the mount; `Secure` over TLS; `SameSite` when configured.
    static func setCookie(token: String, maxAge: Int, secure: Bool, sameSite: String?) -> String {
        var value = "\(name)=\(token); Path=/; Max-Age=\(maxAge); HttpOnly"
        if secure { value += "; Secure" }
        if let sameSite { value += "; SameSite=\(sameSite)" }
        return value
    }

    /// `Set-Cookie` that clears the session (logout, failed login).
    static let clearing = "\(name)=; Path=/; Max-Age=0; HttpOnly"
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
