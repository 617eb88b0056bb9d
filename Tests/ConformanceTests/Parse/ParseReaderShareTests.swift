import XCTest
import Foundation
import Core
#if canImport(Glibc)
import Glibc
#endif

/// Whether the server has started answering on `fd` (or closed it).
private func readable(_ fd: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
}

/// Slow queries get only a share of the read connections: while they run (and more of them wait for a
/// place), GETs by id and simple indexed queries keep being answered; a slow query that finds no place in
/// time is answered with 124.
final class ParseReaderShareTests: ParseConformanceCase {
    override var environment: [String: String] {
        // Two readers, so one slow query may hold one of them; the others wait long enough for the fast
        // requests below to be answered first, and the budget outlasts both.
        ["QUARTET_STORAGE_READERS": "2", "QUARTET_PARSE_QUERY_TIMEOUT": "12",
         "QUARTET_STORAGE_HEAVY_READ_WAIT_MILLISECONDS": "6000"]
    }

    func test_hardening_slow_queries_leave_readers_for_gets_and_simple_queries() throws {
        try seedMegabyteRows(parse, count: 8)
        let recipe = try parse.create("Recipe", #"{"name":"Omelette"}"#)
        let (user, token) = try parse.signUp("cook")

        var slow: [HTTPTestClient] = []
        for _ in 0..<3 {
            let c = try parse.server.connect(timeout: 60)
            try c.send(HTTPTestClient.requestBytes("GET", "/parse/classes/Big?\(slowRegex)", headers: ParseServer.headers()))
            slow.append(c)
        }
        usleep(500_000)

        let byId = q(#"{"objectId":"\#(recipe)"}"#)
        try parse.expect(200, "GET", "/parse/classes/Recipe/\(recipe)")
        try parse.expect(200, "GET", "/parse/classes/Recipe/\(recipe)?keys=name")
        try parse.expect(200, "GET", "/parse/users/\(user)", headers: ParseServer.headers(session: token))
        try parse.expect(200, "GET", "/parse/users/me", headers: ParseServer.headers(session: token))
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Recipe?where=\(byId)")["results"]?[0]?["name"], "Omelette")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Recipe?limit=1")["results"]?.arrayValue?.count, 1)
        // Every fast request above was answered before any slow query ended.
        XCTAssertEqual(slow.filter { readable($0.fd) }.count, 0, "a slow query ended before the fast requests were answered")

        // One slow query ran until its budget; the others found no place in time. All end with 124.
        let errors = try slow.map { try timeoutError(of: $0) }
        XCTAssertEqual(errors.filter { $0 == ranOutOfTime }.count, 1, "\(errors)")
        XCTAssertEqual(errors.filter { $0 == foundNoPlace }.count, 2, "\(errors)")
    }
}

/// The 124 of a query that had a place and ran until its budget.
private let ranOutOfTime = "Query timed out."
/// The 124 of a query that waited `storage.heavyReadWaitMilliseconds` for a place in vain.
private let foundNoPlace = "Query timed out: too many slow queries are running."

/// Reads the answer on `client`, checks that it is Parse's 124, and returns its message.
private func timeoutError(of client: HTTPTestClient, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let r = try client.readResponse()
    XCTAssertEqual(r.status, 400, r.text, file: file, line: line)
    let j = try JSONParser.parse(r.body)
    XCTAssertEqual(j["code"], 124, r.text, file: file, line: line)
    return j["error"]?.stringValue ?? ""
}

/// The case of the issue with the default share (8 readers, 4 heavy places, 2 per client): eight slow
/// queries from one address used to hold every reader, and a simple query waited over 5 s. Now two of them
/// run and six are refused after a short wait; another client (a signed-in user) still gets a place of its
/// own; and GETs and simple queries are answered while the slow ones run.
final class ParseReaderShareDefaultsTests: ParseConformanceCase {
    /// Shorter than any one match over the rows, so every query that runs ends at its budget.
    override var environment: [String: String] { ["QUARTET_PARSE_QUERY_TIMEOUT": "6"] }

    func test_hardening_eight_slow_queries_of_one_client_leave_room_for_others() throws {
        try seedMegabyteRows(parse, count: 8)
        let recipe = try parse.create("Recipe", #"{"name":"Omelette"}"#)
        let (_, token) = try parse.signUp("cook")

        func sendSlow(_ headers: [(String, String)]) throws -> HTTPTestClient {
            let c = try parse.server.connect(timeout: 60)
            try c.send(HTTPTestClient.requestBytes("GET", "/parse/classes/Big?\(slowRegex)", headers: headers))
            return c
        }
        let anonymous = try (0..<8).map { _ in try sendSlow(ParseServer.headers()) }
        usleep(300_000)
        let user = try sendSlow(ParseServer.headers(session: token))
        usleep(300_000)

        try parse.expect(200, "GET", "/parse/classes/Recipe/\(recipe)")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Recipe?where=" + q(#"{"objectId":"\#(recipe)"}"#))["results"]?[0]?["name"],
                       "Omelette")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Recipe?limit=1")["results"]?.arrayValue?.count, 1)
        XCTAssertFalse(readable(user.fd), "the user's slow query ended before the simple queries were answered")

        let errors = try anonymous.map { try timeoutError(of: $0) }
        XCTAssertEqual(errors.filter { $0 == ranOutOfTime }.count, 2, "\(errors)")
        XCTAssertEqual(errors.filter { $0 == foundNoPlace }.count, 6, "\(errors)")
        // The user is another client: the address's two places did not keep it out.
        XCTAssertEqual(try timeoutError(of: user), ranOutOfTime)
    }
}
