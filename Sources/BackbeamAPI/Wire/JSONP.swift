/// JSONP wrapping of API responses (§2.3.3).
///
/// With a `callback` parameter the JSON body `B` goes out as `/**/<callback>(B);` with HTTP 200 whatever
/// the outcome (a script loader cannot read an error status). The `/**/` prefix keeps the first bytes
/// from ever being attacker-chosen text that a browser could sniff as another content type.
public enum JSONP {
    /// The content type of a wrapped response.
    public static let contentType = "text/javascript; charset=utf-8"

    /// Longest accepted callback name (the grammar's first character plus 127 more).
    public static let maxCallbackLength = 128

    /// True when `name` matches `^[A-Za-z_$][A-Za-z0-9_$.]{0,127}$`: an identifier path such as
    /// `jQuery1102_1.cb`, and nothing that could close the call and start another statement.
    public static func isValidCallback(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= maxCallbackLength, isStart(first) else { return false }
        return bytes.dropFirst().allSatisfy { isStart($0) || isDigit($0) || $0 == UInt8(ascii: ".") }
    }

    /// `/**/<callback>(<body>);` as bytes. The callback must have passed `isValidCallback`.
    public static func wrap(_ body: [UInt8], callback: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + callback.utf8.count + 7)
        out.append(contentsOf: "/**/".utf8)
        out.append(contentsOf: callback.utf8)
        out.append(UInt8(ascii: "("))
        out.append(contentsOf: body)
        out.append(contentsOf: ");".utf8)
        return out
    }

    private static func isStart(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
