extension JSONNumber {
    /// Formats a finite double the way ECMAScript's Number::toString does (radix 10).
    ///
    /// Swift's `description` already yields the shortest round-trip digits; only the layout differs
    /// (`1.0`, `1e-07`, `1e+16` in Swift versus `1`, `1e-7`, `10000000000000000` in JavaScript). So the
    /// digits and decimal exponent are taken from Swift's text and laid out by the ECMAScript rules.
    static func javaScriptText(_ v: Double) -> String {
        if v == 0 { return "0" }   // both +0 and -0, as in JavaScript
        let (negative, digits, point) = shortestDigits(v)
        // ECMAScript names: k = digit count, n = position of the decimal point (value = 0.d1..dk * 10^n).
        let k = digits.count
        let n = point
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        out.reserveCapacity(k + 8)
        if k <= n && n <= 21 {
            out += digits
            out += repeatElement(UInt8(ascii: "0"), count: n - k)
        } else if 0 < n && n <= 21 {
            out += digits[0..<n]
            out.append(UInt8(ascii: "."))
            out += digits[n...]
        } else if -6 < n && n <= 0 {
            out += [UInt8(ascii: "0"), UInt8(ascii: ".")]
            out += repeatElement(UInt8(ascii: "0"), count: -n)
            out += digits
        } else {
            out.append(digits[0])
            if k > 1 {
                out.append(UInt8(ascii: "."))
                out += digits[1...]
            }
            out.append(UInt8(ascii: "e"))
            let e = n - 1
            out.append(e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            out += Array(String(e.magnitude).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits Swift's shortest representation into sign, significant digits (no leading or trailing
    /// zeros) and the decimal point position `n` such that value = 0.digits * 10^n.
    private static func shortestDigits(_ v: Double) -> (Bool, [UInt8], Int) {
        var negative = false
        var mantissa: [UInt8] = []
        var pointIndex: Int?          // digits before the '.' in Swift's text
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for c in v.description.utf8 {
            switch c {
            case UInt8(ascii: "-"):
                if inExponent { exponentSign = -1 } else { negative = true }
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): pointIndex = mantissa.count
            case UInt8(ascii: "e"): inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent { exponent = exponent * 10 + Int(c - UInt8(ascii: "0")) }
                else { mantissa.append(c) }
            default: break
            }
        }
        // Swift's text is d.ddd * 10^exponent, i.e. 0.dddd * 10^(pointIndex + exponent).
        var point = (pointIndex ?? mantissa.count) + exponentSign * exponent
        var start = 0
        while start < mantissa.count - 1, mantissa[start] == UInt8(ascii: "0") {
            start += 1
            point -= 1
        }
        var end = mantissa.count
        while end > start + 1, mantissa[end - 1] == UInt8(ascii: "0") { end -= 1 }
        return (negative, Array(mantissa[start..<end]), point)
    }
}
