import XCTest
@testable import HTTP

/// The outcome of feeding bytes to a parser the way a connection does.
struct ParseRun {
    var events: [ParseEvent] = []
    var error: HTTPError?
    /// Bytes left unconsumed at the end.
    var leftover = 0

    /// Events with consecutive `.body` pieces joined, so runs split differently compare equal.
    var merged: [ParseEvent] {
        var result: [ParseEvent] = []
        for event in events {
            if case .body(let more) = event, case .body(let previous)? = result.last {
                result[result.count - 1] = .body(previous + more)
            } else {
                result.append(event)
            }
        }
        return result
    }

    /// The heads, in order.
    var heads: [RequestHead] {
        events.compactMap { if case .head(let head) = $0 { return head } else { return nil } }
    }

    /// The body bytes of every request, concatenated.
    var body: [UInt8] {
        events.flatMap { event -> [UInt8] in if case .body(let bytes) = event { return bytes } else { return [] } }
    }
}

/// Feeds `pieces` one after another to a fresh parser, looping like a connection: consume, drop what
/// was consumed, call again until a call consumes nothing.
func runParser(_ pieces: [[UInt8]], limits: Limits = Limits(), bodyLimit: Int? = nil) -> ParseRun {
    var parser = HTTPRequestParser(limits: limits)
    var run = ParseRun()
    var buffer: [UInt8] = []
    do {
        for piece in pieces {
            buffer.append(contentsOf: piece)
            while true {
                var events: [ParseEvent] = []
                let consumed = try buffer.withUnsafeBytes { raw throws(HTTPError) in
                    try parser.consume(raw, into: &events)
                }
                buffer.removeFirst(consumed)
                run.events.append(contentsOf: events)
                if let limit = bodyLimit, events.contains(where: { if case .head = $0 { true } else { false } }) {
                    try parser.setBodyLimit(limit)
                }
                if consumed == 0 { break }
            }
        }
    } catch let error as HTTPError {
        run.error = error
    } catch {
        XCTFail("unexpected error \(error)")
    }
    run.leftover = buffer.count
    return run
}

/// Feeds one string in one piece.
func runParser(_ text: String, limits: Limits = Limits(), bodyLimit: Int? = nil) -> ParseRun {
    runParser([Array(text.utf8)], limits: limits, bodyLimit: bodyLimit)
}

/// Asserts that `text` is rejected with `expected`.
func assertRejected(_ text: String, _ expected: HTTPError, limits: Limits = Limits(),
                    file: StaticString = #filePath, line: UInt = #line) {
    let run = runParser(text, limits: limits)
    XCTAssertEqual(run.error, expected, "for \(text.debugDescription)", file: file, line: line)
    XCTAssertTrue(run.heads.isEmpty, "no head may be produced for a rejected request", file: file, line: line)
}

/// Asserts that `text` is rejected with some `.badRequest`.
func assertBadRequest(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
    let run = runParser(text)
    guard case .badRequest? = run.error else {
        XCTFail("expected 400 for \(text.debugDescription), got \(String(describing: run.error)) \(run.events)",
                file: file, line: line)
        return
    }
}
