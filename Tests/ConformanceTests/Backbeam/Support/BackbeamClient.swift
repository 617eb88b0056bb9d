import Foundation
import XCTest
import Core

/// How a client encodes its requests (spec §1.2, §7.3).
enum SDKStyle {
    /// AFNetworking: urlencoded bodies for POST/PUT, DELETE params in the query string, `k[]` lists, `%20`.
    case ios
    /// android-async-http: DELETE tunnelled as GET + `_method=DELETE`, `k[0]` lists, `+` for spaces, plus
    /// `method`/`path` sent as real parameters.
    case android
    /// Browser XHR: repeated `k=a&k=b`, DELETE parameters in both query and body.
    case browser
    /// Node: GET/DELETE via `qs` (`k%5B0%5D`), POST/PUT as multipart/form-data.
    case node
}

/// A key pair of one environment.
struct BBKeys {
    var key: String
    var secret: String
}

/// A response with its body parsed by Core's JSON parser (numbers keep their literal text).
struct BBResponse {
    var raw: TestResponse
    var status: Int { raw.status }
    var text: String { raw.text }
    var json: JSON { (try? JSONParser.parse(raw.body)) ?? .null }
    subscript(_ key: String) -> JSON? { json[key] }
    var apiStatus: String? { json["status"]?.stringValue }
    func header(_ name: String) -> String? { raw.header(name) }
    /// The ids of a list response.
    var ids: [String] { json["ids"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    /// One object of `objects`.
    func object(_ id: String) -> JSON? { json["objects"]?[id] }
    /// The main object of an object response.
    var main: JSON? { json["id"]?.stringValue.flatMap { object($0) } }
    var id: String { json["id"]?.stringValue ?? "" }
}

/// Signs and sends Backbeam requests to one project environment of a test server, the way each SDK does.
struct BackbeamClient {
    let server: TestServer
    var project: String
    var env: String
    var keys: BBKeys
    /// Address by Host (`api-<env>-<project>.example.com`) or by the `/backbeam/<p>/<e>` prefix.
    var usePrefix = false
    var style: SDKStyle = .ios
    /// Sent as the signed `auth` parameter.
    var auth: String?
    /// Overrides the Host header.
    var host: String?

    /// Sends `method path` with `params` (a name repeated, or given several values, is a list), signed unless
    /// `sign` is false. `mutate` may change the final parameter list before encoding (tampering tests).
    func send(_ method: String, _ path: String, _ params: [(String, [String])] = [], sign: Bool = true,
              time: Int64? = nil, nonce: String? = nil, extraHeaders: [(String, String)] = [],
              signPath: String? = nil, signMethod: String? = nil, rawPath: String? = nil,
              mutate: ((inout [(String, [String])]) -> Void)? = nil) throws -> BBResponse {
        var all = params
        if let auth { all.append(("auth", [auth])) }
        if sign {
            all.append(("key", [keys.key]))
            all.append(("nonce", [nonce ?? BackbeamSigner.nonce()]))
            all.append(("time", [String(time ?? BackbeamSigner.now())]))
            let canonical = BackbeamSigner.canonical(all, method: signMethod ?? method, path: signPath ?? path)
            all.append(("signature", [BackbeamSigner.signature(secret: keys.secret, canonical: canonical)]))
        }
        mutate?(&all)
        var httpMethod = method
        var queryPairs: [(String, [String])] = []
        var bodyPairs: [(String, [String])]? = nil
        switch style {
        case .ios:
            if method == "GET" || method == "DELETE" { queryPairs = all } else { bodyPairs = all }
        case .android:
            var junk = all
            junk.append(("method", [method]))
            junk.append(("path", [path]))
            if method == "DELETE" {
                httpMethod = "GET"
                junk.append(("_method", ["DELETE"]))
            }
            if httpMethod == "GET" { queryPairs = junk } else { bodyPairs = junk }
        case .browser:
            if method == "GET" { queryPairs = all } else if method == "DELETE" { queryPairs = all; bodyPairs = all } else { bodyPairs = all }
        case .node:
            if method == "GET" || method == "DELETE" { queryPairs = all } else { bodyPairs = all }
        }
        var target = rawPath ?? path
        if usePrefix { target = "/backbeam/\(project)/\(env)" + target }
        let query = Self.encode(queryPairs, style: style)
        if !query.isEmpty { target += "?" + query }
        var headers: [(String, String)] = [("Host", host ?? (usePrefix ? "localhost" : "api-\(env)-\(project).example.com:\(server.port)"))]
        var body: [UInt8] = []
        if let bodyPairs {
            if style == .node {
                let boundary = "----quartet\(UUID().uuidString.prefix(8))"
                body = Self.multipart(bodyPairs, boundary: boundary)
                headers.append(("Content-Type", "multipart/form-data; boundary=\(boundary)"))
            } else {
                body = Array(Self.encode(bodyPairs, style: style).utf8)
                headers.append(("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"))
            }
        }
        headers += extraHeaders
        return BBResponse(raw: try server.request(httpMethod, target, headers: headers, body: body))
    }

    /// Form encoding in the client's list and space conventions.
    static func encode(_ pairs: [(String, [String])], style: SDKStyle) -> String {
        var out: [String] = []
        for (name, values) in pairs {
            let isList = values.count > 1 || name == "params" || name.hasPrefix("add-") || name.hasPrefix("rem-")
            for (i, value) in values.enumerated() {
                let key: String
                switch style {
                case .ios: key = isList ? name + "[]" : name
                case .android: key = isList ? "\(name)[\(i)]" : name
                case .browser: key = name
                case .node: key = isList ? "\(name)[\(i)]" : name
                }
                out.append(escape(key, style: style) + "=" + escape(value, style: style))
            }
        }
        return out.joined(separator: "&")
    }

    static func escape(_ text: String, style: SDKStyle) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        if style == .android {
            allowed.insert(" ")
            return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: " ", with: "+")
        }
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// A multipart/form-data body with one part per value (lists as `name[i]`, like the Node SDK's qs).
    static func multipart(_ pairs: [(String, [String])], boundary: String) -> [UInt8] {
        var body = ""
        for (name, values) in pairs {
            for (i, value) in values.enumerated() {
                let key = values.count > 1 || name == "params" ? "\(name)[\(i)]" : name
                body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(key)\"\r\n\r\n\(value)\r\n"
            }
        }
        body += "--\(boundary)--\r\n"
        return Array(body.utf8)
    }
}

extension BackbeamClient {
    /// `params` plus `key`, `nonce`, `time` and `signature` for `method path`, as decoded values.
    func signed(_ method: String, _ path: String, _ params: [(String, [String])]) -> [(String, [String])] {
        var all = params
        if let auth { all.append(("auth", [auth])) }
        all.append(("key", [keys.key]))
        all.append(("nonce", [BackbeamSigner.nonce()]))
        all.append(("time", [String(BackbeamSigner.now())]))
        let canonical = BackbeamSigner.canonical(all, method: method, path: path)
        all.append(("signature", [BackbeamSigner.signature(secret: keys.secret, canonical: canonical)]))
        return all
    }

    /// A request whose query string and body are given exactly as written (already encoded).
    func raw(_ method: String, _ target: String, body: String? = nil,
             contentType: String = "application/x-www-form-urlencoded") throws -> BBResponse {
        var headers: [(String, String)] = [("Host", host ?? "api-\(env)-\(project).example.com")]
        if body != nil { headers.append(("Content-Type", contentType)) }
        return BBResponse(raw: try server.request(method, target, headers: headers, body: body ?? ""))
    }
}
