/// A header value of the form `value *( ";" name "=" ( token / quoted-string ) )`, as used by
/// Content-Type and Content-Disposition (RFC 9110 5.6.6, RFC 6266).
struct HeaderParameters {
    /// The part before the first ';', trimmed (e.g. "multipart/form-data", "form-data").
    var value: String
    /// Parameters in order; names lower-cased, quoted values unescaped.
    var parameters: [(name: String, value: String)]

    /// The first parameter called `name` (give it lower-cased).
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// Parses `text`; nil when a quoted string is not terminated.
    static func parse(_ text: String) -> HeaderParameters? {
        let bytes = Array(text.utf8)
        var index = 0
        func skipOWS() { while index < bytes.count, ByteClass.isOWS(bytes[index]) { index += 1 } }
        func trimmed(_ start: Int, _ end: Int) -> String {
            var s = start, e = end
            while s < e, ByteClass.isOWS(bytes[s]) { s += 1 }
            while e > s, ByteClass.isOWS(bytes[e - 1]) { e -= 1 }
            return String(decoding: bytes[s..<e], as: UTF8.self)
        }
        while index < bytes.count, bytes[index] != 0x3B { index += 1 }
        var result = HeaderParameters(value: trimmed(0, index), parameters: [])
        while index < bytes.count {
            index += 1   // the ';'
            skipOWS()
            let nameStart = index
            while index < bytes.count, bytes[index] != 0x3D, bytes[index] != 0x3B { index += 1 }
            let name = trimmed(nameStart, index).lowercased()
            guard index < bytes.count, bytes[index] == 0x3D else { continue }   // no '=': ignored
            index += 1
            skipOWS()
            var value: [UInt8] = []
            if index < bytes.count, bytes[index] == 0x22 {
                index += 1
                var closed = false
                while index < bytes.count {
                    let b = bytes[index]
                    if b == 0x5C, index + 1 < bytes.count {
                        value.append(bytes[index + 1])
                        index += 2
                    } else if b == 0x22 {
                        closed = true
                        index += 1
                        break
                    } else {
                        value.append(b)
                        index += 1
                    }
                }
                guard closed else { return nil }
                while index < bytes.count, bytes[index] != 0x3B { index += 1 }
                if !name.isEmpty { result.parameters.append((name: name, value: String(decoding: value, as: UTF8.self))) }
            } else {
                let valueStart = index
                while index < bytes.count, bytes[index] != 0x3B { index += 1 }
                if !name.isEmpty { result.parameters.append((name: name, value: trimmed(valueStart, index))) }
            }
        }
        return result
    }

    /// Decodes an RFC 8187 / RFC 5987 extended value `charset'language'percent-encoded`; UTF-8 and
    /// ISO-8859-1 are understood, anything else (or a bad escape) gives nil.
    static func decodeExtendedValue(_ text: String) -> String? {
        let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let charset = pieces[0].lowercased()
        var encoded = pieces[2]
        return encoded.withUTF8 { buf -> String? in
            let raw = UnsafeRawBufferPointer(buf)
            switch charset {
            case "utf-8":
                if case .success(let decoded) = PercentCoding.decode(raw, 0, raw.count, plusIsSpace: false) {
                    return decoded
                }
                return nil
            case "iso-8859-1":
                guard let bytes = PercentCoding.decodeBytes(raw, 0, raw.count) else { return nil }
                // ISO-8859-1 bytes are exactly the first 256 Unicode scalars.
                return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
            default:
                return nil
            }
        }
    }
}
