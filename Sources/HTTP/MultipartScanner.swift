/// Fixed bounds of the multipart syntax (a generic type cannot hold static constants).
enum MultipartLimits {
    /// Part header blocks larger than this are refused; real ones are a few hundred bytes.
    static let maxHeaderBlock = 16 * 1024
    /// Transport padding allowed after a delimiter before its CRLF.
    static let maxPadding = 256
}

/// The multipart state machine. Bytes are fed in pieces; a sliding window keeps only what may still be
/// the start of a delimiter or an unfinished header block, so memory stays bounded by the piece size; each
/// part's header block and content go to `consumer` as they are found.
struct MultipartStreamScanner<Consumer: MultipartConsumer> {
    private enum State {
        /// Before the first delimiter (the preamble is discarded).
        case preamble
        /// Just after a delimiter: "--" closes the body, otherwise padding and CRLF start a part.
        case afterDelimiter
        /// Reading a part's header block.
        case headers
        /// Inside a part's content.
        case content
        /// After the close delimiter (the epilogue is ignored).
        case done
    }

    /// Part header blocks larger than this are refused; real ones are a few hundred bytes.
    static var maxHeaderBlock: Int { MultipartLimits.maxHeaderBlock }
    /// Transport padding allowed after a delimiter before its CRLF.
    static var maxPadding: Int { MultipartLimits.maxPadding }

    /// "\r\n--" + boundary: every delimiter, the first included, because the window starts with a CRLF.
    private let delimiter: [UInt8]
    private let maxParts: Int
    private var state = State.preamble
    private var window: [UInt8] = [0x0D, 0x0A]
    private var start = 0
    private var partCount = 0
    /// Receives the parts.
    var consumer: Consumer

    init(boundary: String, maxParts: Int, consumer: Consumer) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.maxParts = maxParts
        self.consumer = consumer
    }

    /// Takes the next piece of the body.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(MultipartError) {
        if case .done = state { return }
        if start > 0 {
            window.removeSubrange(0..<start)
            start = 0
        }
        window.append(contentsOf: chunk)
        try process()
    }

    /// Ends the input: the close delimiter must have been seen.
    func finish() throws(MultipartError) {
        switch state {
        case .done:
            return
        case .preamble:
            throw .malformed("boundary not found")
        default:
            throw .malformed("missing final boundary")
        }
    }

    private mutating func process() throws(MultipartError) {
        while true {
            switch state {
            case .done:
                return
            case .preamble:
                guard let found = find(delimiter, from: start) else {
                    start = max(start, window.count - (delimiter.count - 1))
                    return
                }
                start = found + delimiter.count
                state = .afterDelimiter
            case .afterDelimiter:
                guard try readDelimiterTail() else { return }
            case .headers:
                guard try readHeaders() else { return }
            case .content:
                if let found = find(delimiter, from: start) {
                    try deliver(start, found)
                    try consumer.endPart()
                    start = found + delimiter.count
                    state = .afterDelimiter
                } else {
                    // Keep a tail that could be the beginning of a delimiter split across pieces.
                    let safe = window.count - (delimiter.count - 1)
                    if safe > start {
                        try deliver(start, safe)
                        start = safe
                    }
                    return
                }
            }
        }
    }

    /// Hands `window[from..<to]` to the consumer.
    private mutating func deliver(_ from: Int, _ to: Int) throws(MultipartError) {
        guard to > from else { return }
        // A second reference to the window's storage (no copy: nothing writes to it meanwhile) lets the consumer,
        // another stored property, be mutated while the bytes are read.
        let bytes = window
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(MultipartError) in try consumer.partContent(UnsafeRawBufferPointer(rebasing: raw[from..<to])) }
        }
        try result.get()
    }

    /// After a delimiter: "--" ends the body; otherwise optional spaces/tabs then CRLF start a part.
    /// Returns false when more bytes are needed.
    private mutating func readDelimiterTail() throws(MultipartError) -> Bool {
        guard window.count - start >= 2 else { return false }
        if window[start] == 0x2D, window[start + 1] == 0x2D {
            state = .done
            return false
        }
        var index = start
        while index < window.count, ByteClass.isOWS(window[index]) { index += 1 }
        guard index - start <= Self.maxPadding else { throw .malformed("invalid boundary line") }
        guard window.count - index >= 2 else { return false }
        guard window[index] == 0x0D, window[index + 1] == 0x0A else {
            throw .malformed("invalid boundary line")
        }
        guard partCount < maxParts else { throw .tooManyParts }
        partCount += 1
        start = index + 2
        state = .headers
        return true
    }

    /// Reads a part's header block up to its empty line. Returns false when more bytes are needed.
    private mutating func readHeaders() throws(MultipartError) -> Bool {
        let end: Int
        let next: Int
        if window.count - start >= 2, window[start] == 0x0D, window[start + 1] == 0x0A {
            end = start
            next = start + 2
        } else if let found = find([0x0D, 0x0A, 0x0D, 0x0A], from: start) {
            end = found + 2
            next = found + 4
        } else {
            if window.count - start > Self.maxHeaderBlock { throw .malformed("part headers too large") }
            return false
        }
        guard end - start <= Self.maxHeaderBlock else { throw .malformed("part headers too large") }
        let headers = try MultipartPartHeaders.parse(window[start..<end])
        try consumer.beginPart(headers)
        start = next
        state = .content
        return true
    }

    /// Index of the first occurrence of `needle` in the window at or after `from`.
    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first else { return nil }
        return window.withUnsafeBytes { raw -> Int? in
            var index = from
            while index + needle.count <= raw.count {
                guard let hit = raw.firstIndex(of: first, from: index, to: raw.count - needle.count + 1) else { return nil }
                var matches = true
                for k in 1..<needle.count where raw[hit + k] != needle[k] {
                    matches = false
                    break
                }
                if matches { return hit }
                index = hit + 1
            }
            return nil
        }
    }
}
