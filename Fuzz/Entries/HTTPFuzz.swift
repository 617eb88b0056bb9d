import HTTP

/// Harnesses for the HTTP layer: the incremental request parser (head and chunked body), multipart
/// bodies, and form and percent decoding.
enum HTTPFuzz {
    /// Small limits, so that the limit paths are reached by inputs of fuzzing size.
    static let limits = Limits(maxRequestTarget: 512, maxHeaderBytes: 1024, maxHeaderCount: 16, maxBodyBytes: 4096,
                               inMemoryBodyThreshold: 1024)

    /// The whole input as the bytes of a connection. The first byte picks where the stream is cut into two
    /// reads, so requests split at every point are exercised; unconsumed bytes are handed in again with the
    /// next read, as the server does.
    static func request(_ input: [UInt8]) -> FuzzOutcome {
        guard let first = input.first else { return .accepted }
        let stream = Array(input.dropFirst())
        let cut = stream.isEmpty ? 0 : Int(first) % (stream.count + 1)
        return feed(stream, cuts: [cut])
    }

    /// A chunked body after a fixed head: the input is the body, delivered in reads of a size taken from
    /// its first byte (1 to 16 bytes), so chunk lines and CRLFs split across reads.
    static func chunked(_ input: [UInt8]) -> FuzzOutcome {
        guard let first = input.first else { return .accepted }
        let head = Array("POST /c HTTP/1.1\r\nHost: fuzz\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let body = Array(input.dropFirst())
        let step = Int(first % 16) + 1
        var cuts: [Int] = []
        var at = head.count + step
        while at < head.count + body.count {
            cuts.append(at)
            at += step
        }
        return feed(head + body, cuts: cuts)
    }

    /// Runs a parser over `stream` delivered in reads ending at `cuts` (ascending offsets), keeping
    /// unconsumed bytes as the server's buffer does. Checks that every call consumes what it says.
    static func feed(_ stream: [UInt8], cuts: [Int]) -> FuzzOutcome {
        var parser = HTTPRequestParser(limits: limits)
        var buffer: [UInt8] = []
        var events: [ParseEvent] = []
        var delivered = 0
        var heads = 0
        var bodyBytes = 0
        // Bytes before `start` are consumed; they are dropped only when a read arrives, as a server
        // compacts its buffer, so a long input is not copied once per parser call.
        var start = 0
        for end in cuts + [stream.count] where end > delivered && end <= stream.count {
            buffer.removeFirst(start)
            start = 0
            buffer += stream[delivered..<end]
            delivered = end
            do {
                while start < buffer.count {
                    let from = start
                    let used = try buffer.withUnsafeBytes { raw throws(HTTPError) in
                        try parser.consume(UnsafeRawBufferPointer(rebasing: raw[from...]), into: &events)
                    }
                    guard used >= 0, used <= buffer.count - start else {
                        return .violated("consumed \(used) of \(buffer.count - start)")
                    }
                    if used == 0 { break }
                    start += used
                }
            } catch {
                return .refused("\(error)")
            }
            for event in events {
                switch event {
                case .head: heads += 1
                case .body(let bytes): bodyBytes += bytes.count
                case .end: break
                }
            }
            events.removeAll(keepingCapacity: true)
        }
        // Body pieces never exceed the limit the parser enforces.
        guard bodyBytes <= limits.maxBodyBytes * max(1, heads) else {
            return .violated("\(bodyBytes) body bytes delivered for \(heads) requests")
        }
        return .accepted
    }

    /// A `multipart/form-data` body with a fixed boundary, parsed from memory with a spool threshold low
    /// enough that file parts are written (and removed) too. Also checks `boundary(fromContentType:)` on
    /// the input's first line.
    static func multipart(_ input: [UInt8], tempDirectory: String) -> FuzzOutcome {
        let (firstLine, _) = FuzzInput.split(input, at: 0x0A)
        _ = Multipart.boundary(fromContentType: String(decoding: firstLine, as: UTF8.self))
        do throws(MultipartError) {
            let parts = try Multipart.parse(.bytes(input), boundary: "fuzz-boundary", maxParts: 32, maxPartBytes: 4096,
                                            inMemoryThreshold: 256, tempDirectory: tempDirectory)
            Multipart.removeTemporaryFiles(parts)
            return .accepted
        } catch {
            return .refused("\(error)")
        }
    }

    /// Form decoding with `+` as space and without, and path percent-decoding, of the same bytes.
    static func form(_ input: [UInt8]) -> FuzzOutcome {
        var outcomes: [FuzzOutcome] = []
        for plusIsSpace in [true, false] {
            do throws(FormError) {
                let parameters = try FormParameters.parse(input, plusIsSpace: plusIsSpace)
                guard parameters.pairs.count <= FormParameters.maxParameters else {
                    return .violated("\(parameters.pairs.count) parameters")
                }
                outcomes.append(.accepted)
            } catch {
                outcomes.append(.refused("\(error)"))
            }
        }
        let text = String(decoding: input, as: UTF8.self)
        if let path = PercentDecoding.decodePath(Substring(text)) {
            guard !path.utf8.contains(0) else { return .violated("decoded path holds NUL") }
            outcomes.append(.accepted)
        } else {
            outcomes.append(.refused("path not decodable"))
        }
        return FuzzOutcome.all(outcomes)
    }
}
