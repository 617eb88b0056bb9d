import Foundation
import XCTest
import Core

/// A file part of an upload.
struct BBFilePart {
    var filename: String?
    var contentType: String?
    var bytes: [UInt8]
    /// The part's name (`file` for the SDKs).
    var name = "file"
    /// Written instead of `filename="..."` when set (`filename*=UTF-8''...`, RFC 7578 / 5987).
    var rawFilenameParameter: String?
}

extension BackbeamClient {
    /// A multipart upload the way the SDKs send one: the signed parameters as fields (lists in the client's
    /// convention: `k[]` iOS, `k[0]` Android and Node, repeated for the browser) and the file part, which is
    /// never signed (§2.2, §3.5).
    func upload(_ params: [(String, [String])] = [], method: String = "POST", path: String = "/data/file/upload",
                file: BBFilePart?) throws -> BBResponse {
        var fields = signed(method, path, params)
        if style == .android {
            fields.append(("method", [method]))
            fields.append(("path", [path]))
        }
        let boundary = "----quartetupload\(UUID().uuidString.prefix(8))"
        var body: [UInt8] = []
        for (name, values) in fields {
            let isList = values.count > 1 || name.hasPrefix("add-") || name.hasPrefix("rem-")
            for (i, value) in values.enumerated() {
                let key: String
                switch style {
                case .ios: key = isList ? name + "[]" : name
                case .android, .node: key = isList ? "\(name)[\(i)]" : name
                case .browser: key = name
                }
                body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(key)\"\r\n\r\n\(value)\r\n".utf8)
            }
        }
        if let file {
            var disposition = "form-data; name=\"\(file.name)\""
            if let raw = file.rawFilenameParameter {
                disposition += "; " + raw
            } else if let filename = file.filename {
                disposition += "; filename=\"\(filename)\""
            } else {
                disposition += "; filename=\"\""
            }
            var head = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
            if let type = file.contentType { head += "Content-Type: \(type)\r\n" }
            body += Array((head + "\r\n").utf8) + file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let headers = [("Host", host ?? "api-\(env)-\(project).example.com:\(server.port)"),
                       ("Content-Type", "multipart/form-data; boundary=\(boundary)")]
        return BBResponse(raw: try server.request(method, path, headers: headers, body: body, timeout: 60))
    }

    /// An unsigned download (`GET` or `HEAD`) with the query string `query` and extra headers.
    func download(_ path: String, query: String = "", method: String = "GET",
                  headers extra: [(String, String)] = []) throws -> TestResponse {
        let target = query.isEmpty ? path : path + "?" + query
        let headers = [("Host", host ?? "api-\(env)-\(project).example.com:\(server.port)")] + extra
        return try server.request(method, target, headers: headers, timeout: 60)
    }
}

/// The image fixtures of Tests/Fixtures/images.
enum ImageFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/images")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// `jpeg` with an EXIF APP1 segment declaring `orientation` inserted after SOI.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8) -> [UInt8] {
        // TIFF (big-endian): header, one IFD with one SHORT entry 0x0112 = orientation, no next IFD.
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0,
                             0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2))
    }
}

/// What an image's bytes declare, read here independently of the server: format, stored size and (GIF)
/// the number of frames.
struct ImageInfo: Equatable {
    var format: String
    var width: Int
    var height: Int
    var frames = 1

    static func read(_ b: [UInt8]) -> ImageInfo? {
        func be16(_ i: Int) -> Int? { i + 1 < b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : nil }
        func le16(_ i: Int) -> Int? { i + 1 < b.count ? Int(b[i + 1]) << 8 | Int(b[i]) : nil }
        func be32(_ i: Int) -> Int? { i + 3 < b.count ? Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) : nil }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard let w = be32(16), let h = be32(20) else { return nil }
            return ImageInfo(format: "png", width: w, height: h)
        }
        if b.starts(with: Array("GIF8".utf8)) {
            guard let w = le16(6), let h = le16(8), b.count > 10 else { return nil }
            var i = 13
            if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
            var frames = 0
            func skipSubBlocks(_ j: inout Int) { while j < b.count, b[j] != 0 { j += Int(b[j]) + 1 }; j += 1 }
            while i < b.count {
                switch b[i] {
                case 0x21: i += 2; skipSubBlocks(&i)
                case 0x2C:
                    frames += 1
                    guard i + 9 < b.count else { return nil }
                    let packed = b[i + 9]
                    i += 10
                    if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
                    i += 1
                    skipSubBlocks(&i)
                case 0x3B: return ImageInfo(format: "gif", width: w, height: h, frames: frames)
                default: return nil
                }
            }
            return nil
        }
        if b.starts(with: [0xFF, 0xD8]) {
            var i = 2
            while i + 3 < b.count, b[i] == 0xFF {
                let marker = b[i + 1]
                guard let length = be16(i + 2) else { return nil }
                if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                    guard let h = be16(i + 5), let w = be16(i + 7) else { return nil }
                    return ImageInfo(format: "jpeg", width: w, height: h)
                }
                i += 2 + length
            }
        }
        return nil
    }
}
