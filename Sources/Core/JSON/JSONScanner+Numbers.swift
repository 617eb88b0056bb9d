extension JSONScanner {
    /// Reads a number at `pos`, checked against the RFC 8259 grammar, kept as its text.
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = pos
        pos = try Self.scanNumber(buf, from: start)
        let number = JSONNumber(validatedText: String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self))
        // Only decimal literals can overflow: an integer literal denotes an exact integer of any size.
        if options.rejectsDecimalOverflow, !number.isInteger, number.doubleValue.isInfinite {
            throw .syntax(offset: start, message: "number out of range")
        }
        return number
    }

    /// End index of the number starting at `start`, or nil when the bytes there are not a number.
    static func numberEnd(in buf: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        try? scanNumber(buf, from: start)
    }

    /// number = [ "-" ] ( "0" / 1-9 *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "+" / "-" ] 1*DIGIT ]
    static func scanNumber(_ buf: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONError) -> Int {
        let count = buf.count
        var p = start
        @inline(__always) func isDigit(_ i: Int) -> Bool {
            i < count && buf[i] >= UInt8(ascii: "0") && buf[i] <= UInt8(ascii: "9")
        }
        if p < count, buf[p] == UInt8(ascii: "-") { p += 1 }
        guard isDigit(p) else { throw .syntax(offset: p, message: "expected a digit") }
        if buf[p] == UInt8(ascii: "0") {
            p += 1
            if isDigit(p) { throw .syntax(offset: p, message: "leading zeros are not allowed") }
        } else {
            while isDigit(p) { p += 1 }
        }
        if p < count, buf[p] == UInt8(ascii: ".") {
            p += 1
            guard isDigit(p) else { throw .syntax(offset: p, message: "expected a digit after the decimal point") }
            while isDigit(p) { p += 1 }
        }
        if p < count, buf[p] == UInt8(ascii: "e") || buf[p] == UInt8(ascii: "E") {
            p += 1
            if p < count, buf[p] == UInt8(ascii: "+") || buf[p] == UInt8(ascii: "-") { p += 1 }
            guard isDigit(p) else { throw .syntax(offset: p, message: "expected a digit in the exponent") }
            while isDigit(p) { p += 1 }
        }
        return p
    }
}
