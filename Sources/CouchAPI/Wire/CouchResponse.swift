import Synchronization
import Core
import HTTP

/// Responses in CouchDB's wire form (spec §2.4): `Content-Type: application/json` exactly, compact JSON with
/// one trailing `\n`, `Cache-Control: must-revalidate`, and on every response `X-Couch-Request-ID` and
/// `X-CouchDB-Body-Time: 0` (`Server: Quartet/…` comes from the HTTP server).
enum CouchResponse {
    /// The media type of every JSON answer, whatever `Accept` says (Decision §2.4).
    static let jsonType = "application/json"

    /// A JSON response from body bytes that already end with `\n`.
    static func json(_ status: HTTPStatus, bytes: [UInt8], headers extra: [(String, String)] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.reserveCapacity(5 + extra.count)
        headers.add("Content-Type", jsonType)
        headers.add("Cache-Control", "must-revalidate")
        for (name, value) in extra { headers.add(name, value) }
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A JSON response for a value.
    static func json(_ status: HTTPStatus, _ value: JSON, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, bytes: CouchJSON.render(value), headers: headers)
    }

    /// `{"ok":true}` with `status`.
    static func ok(_ status: HTTPStatus = .ok, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, bytes: okBody, headers: headers)
    }

    static let okBody: [UInt8] = Array("{\"ok\":true}\n".utf8)

    /// An error body with its status (§2.6).
    static func error(_ error: CouchError, headers: [(String, String)] = []) -> HTTPResponse {
        json(HTTPStatus(code: error.status), bytes: error.body, headers: headers)
    }

    /// Adds the headers every Couch response carries.
    static func stamp(_ response: inout HTTPResponse) {
        response.headers.add("X-Couch-Request-ID", RequestIDs.next())
        response.headers.add("X-CouchDB-Body-Time", "0")
    }
}

/// `X-Couch-Request-ID` values: 10 lowercase hex digits. A counter scrambled by a keyed mixer (splitmix64)
/// gives distinct-looking ids without a random draw per response; they identify log lines, nothing more.
enum RequestIDs {
    private static let counter = Atomic<UInt64>(0)
    private static let key: UInt64 = Crypto.randomBytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    static func next() -> String {
        var z = counter.add(1, ordering: .relaxed).newValue &+ key
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return String(unsafeUninitializedCapacity: 10) { buffer in
            for i in 0..<10 { buffer[i] = digits[Int(truncatingIfNeeded: (z >> UInt64(36 - 4 * i)) & 0xF)] }
            return 10
        }
    }
}

/// Percent-encoding of one path segment for URLs the server emits (`Location`, redirects, §1.4): RFC 3986
/// unreserved characters kept, every other byte escaped, `/`, `+`, spaces, CR and LF included.
enum PathEncoding {
    static func segment(_ text: String) -> String {
        PercentEncoding.unreserved(text)
    }

    /// Appends `segment(text)`: a text of unreserved characters only (most ids and database names) as it is.
    static func appendSegment(_ text: String, to out: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { bytes -> Bool in
            guard bytes.allSatisfy(isUnreserved) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { out.append(contentsOf: segment(text).utf8) }
    }

    /// RFC 3986's unreserved characters, the bytes `PercentEncoding.unreserved` keeps.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
