import XCTest
import Core
@testable import ParseAPI

/// The limits that keep one write from holding the single writer: fields per class, fields per write, items
/// of one array or relation operation, and schema changes per request (`parse.maxFieldsPerClass`,
/// `maxFieldsPerWrite`, `maxArrayOperationItems`, `maxSchemaChangesPerRequest`).
final class WriteLimitTests: XCTestCase {
    var server: ParseTestServer!

    override func tearDown() { server?.stop() }

    private func body(_ fields: [String: String]) -> String {
        "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    private func numbered(_ n: Int, from start: Int = 0, prefix: String = "k") -> String {
        "{" + (start..<(start + n)).map { "\"\(prefix)\($0)\":\($0)" }.joined(separator: ",") + "}"
    }

    private func assertError(_ reply: JSON, _ code: Int, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply["code"]?.int64Value, Int64(code), "\(reply)", file: file, line: line)
        XCTAssertEqual(reply["error"]?.stringValue, message, file: file, line: line)
    }

    func testDefaults() throws {
        let c = try ParseConfig(section: [:])
        XCTAssertEqual(c.maxFieldsPerClass, 500)
        XCTAssertEqual(c.maxFieldsPerWrite, 1000)
        XCTAssertEqual(c.maxArrayOperationItems, 10_000)
        XCTAssertEqual(c.maxSchemaChangesPerRequest, 500)
        let set = try ParseConfig(section: ["maxFieldsPerClass": "20", "maxFieldsPerWrite": 30, "maxArrayOperationItems": 40,
                                            "maxSchemaChangesPerRequest": 50])
        XCTAssertEqual([set.maxFieldsPerClass, set.maxFieldsPerWrite, set.maxArrayOperationItems, set.maxSchemaChangesPerRequest],
                       [20, 30, 40, 50])
        for key in ["maxFieldsPerClass", "maxFieldsPerWrite", "maxArrayOperationItems", "maxSchemaChangesPerRequest"] {
            XCTAssertThrowsError(try ParseConfig(section: [key: 0]), key) {
                XCTAssertEqual(($0 as? ConfigError)?.key, "parse." + key)
            }
        }
    }

    /// The body of issue 19: 40,000 new top-level keys from an anonymous client. Refused before any of it
    /// reaches the schema or the table.
    func testFortyThousandNewKeysAreRefusedAndNothingIsStored() throws {
        server = try ParseTestServer()
        let reply = try server.json("POST", "/parse/classes/Flood", body: numbered(40_000), status: 400)
        assertError(reply, 107, "Too many fields in one write: the maximum is 1000.")
        try server.json("GET", "/parse/schemas/Flood", headers: ParseTestServer.headers(master: true), status: 400)
        let count = try server.json("GET", "/parse/classes/Flood?count=1&limit=0", headers: ParseTestServer.headers(master: true),
                                    status: 200)
        XCTAssertEqual(count["count"], 0)
    }

    func testFieldsPerWriteCountsDottedPathsOfAnUpdate() throws {
        server = try ParseTestServer(config: ["maxFieldsPerWrite": 3])
        let id = try XCTUnwrap(try server.json("POST", "/parse/classes/C", body: #"{"o":{},"a":1}"#, status: 201)["objectId"]?
            .stringValue)
        try server.json("PUT", "/parse/classes/C/\(id)", body: #"{"o.x":1,"o.y":2,"a":3}"#, status: 200)
        let refused = try server.json("PUT", "/parse/classes/C/\(id)", body: #"{"o.x":1,"o.y":2,"o.z":3,"a":4}"#, status: 400)
        assertError(refused, 107, "Too many fields in one write: the maximum is 3.")
        let got = try server.json("GET", "/parse/classes/C/\(id)", status: 200)
        XCTAssertEqual(got["o"], ["x": 1, "y": 2])
        XCTAssertEqual(got["a"], 3)
        // ACL and objectId do not count: they are not fields of the class.
        try server.json("POST", "/parse/classes/C", body: #"{"a":1,"b":2,"c":3,"ACL":{"*":{"read":true}}}"#, status: 201)
    }

    func testFieldsPerClassStopsNewFieldsButNotWritesToExistingOnes() throws {
        server = try ParseTestServer(config: ["maxFieldsPerClass": 5])
        let id = try XCTUnwrap(try server.json("POST", "/parse/classes/Wide", body: numbered(4), status: 201)["objectId"]?
            .stringValue)
        try server.json("PUT", "/parse/classes/Wide/\(id)", body: #"{"k4":4}"#, status: 200)
        let refused = try server.json("PUT", "/parse/classes/Wide/\(id)", body: #"{"k5":5,"k0":10}"#, status: 400)
        assertError(refused, 140, "Cannot add more than 5 fields to class Wide.")
        let created = try server.json("POST", "/parse/classes/Wide", body: #"{"k1":1,"extra":2}"#, status: 400)
        assertError(created, 140, "Cannot add more than 5 fields to class Wide.")
        // Nothing of the refused writes was stored; writes to existing fields still work.
        try server.json("PUT", "/parse/classes/Wide/\(id)", body: #"{"k0":{"__op":"Increment","amount":1}}"#, status: 200)
        let got = try server.json("GET", "/parse/classes/Wide/\(id)", status: 200)
        XCTAssertEqual(got["k0"], 1)
        XCTAssertNil(got["k5"])
        let schema = try server.json("GET", "/parse/schemas/Wide", headers: ParseTestServer.headers(master: true), status: 200)
        XCTAssertEqual(schema["fields"]?.objectValue?.count, 4 + 5)
        // The master key meets the same limit, through /schemas too (a structural limit).
        let viaSchemas = try server.json("PUT", "/parse/schemas/Wide", headers: ParseTestServer.headers(master: true),
                                         body: #"{"fields":{"more":{"type":"String"}}}"#, status: 400)
        assertError(viaSchemas, 140, "Cannot add more than 5 fields to class Wide.")
        let newClass = try server.json("POST", "/parse/schemas/Wider", headers: ParseTestServer.headers(master: true),
                                       body: #"{"fields":\#(numberedTypes(6))}"#, status: 400)
        assertError(newClass, 140, "Cannot add more than 5 fields to class Wider.")
        // Deleting a field makes room again.
        try server.json("PUT", "/parse/schemas/Wide", headers: ParseTestServer.headers(master: true),
                        body: #"{"fields":{"k4":{"__op":"Delete"}}}"#, status: 200)
        try server.json("PUT", "/parse/classes/Wide/\(id)", body: #"{"k5":5}"#, status: 200)
    }

    private func numberedTypes(_ n: Int) -> String {
        "{" + (0..<n).map { "\"f\($0)\":{\"type\":\"Number\"}" }.joined(separator: ",") + "}"
    }

    func testSchemaChangesPerRequestCoverATransactionalBatch() throws {
        server = try ParseTestServer(config: ["maxSchemaChangesPerRequest": 3])
        let four = try server.json("POST", "/parse/classes/S", body: numbered(4), status: 400)
        assertError(four, 107, "Too many schema changes in one request: the maximum is 3.")
        // A new class counts as a change of its own: the class and two fields make three.
        try server.json("POST", "/parse/classes/S", body: numbered(2), status: 201)
        // One transactional batch is one request: its items' changes add up (1 + 1 here, then 2 more).
        let batch = """
            {"transaction":true,"requests":[{"method":"POST","path":"/parse/classes/S","body":{"a":1}},\
            {"method":"POST","path":"/parse/classes/S","body":{"b":1}},\
            {"method":"POST","path":"/parse/classes/T","body":{"c":1}}]}
            """
        let refused = try server.json("POST", "/parse/batch", body: batch, status: 400)
        assertError(refused, 107, "Too many schema changes in one request: the maximum is 3.")
        let schema = try server.json("GET", "/parse/schemas/S", headers: ParseTestServer.headers(master: true), status: 200)
        XCTAssertNil(schema["fields"]?["a"])
        // Without a transaction every item is a write of its own.
        let items = try server.json("POST", "/parse/batch", body: batch.replacingOccurrences(of: "\"transaction\":true,", with: ""),
                                    status: 200)
        XCTAssertEqual(items.arrayValue?.compactMap { $0["success"] }.count, 3)
        // /schemas counts the fields it adds.
        let viaSchemas = try server.json("POST", "/parse/schemas/U", headers: ParseTestServer.headers(master: true),
                                         body: #"{"fields":\#(numberedTypes(3))}"#, status: 400)
        assertError(viaSchemas, 107, "Too many schema changes in one request: the maximum is 3.")
    }

    func testItemsOfArrayAndRelationOperations() throws {
        server = try ParseTestServer(config: ["maxArrayOperationItems": 3])
        let id = try XCTUnwrap(try server.json("POST", "/parse/classes/A", body: #"{"a":[1,2]}"#, status: 201)["objectId"]?
            .stringValue)
        let ptr = #"{"__type":"Pointer","className":"P","objectId":"p1"}"#
        for op in ["Add", "AddUnique", "Remove"] {
            try server.json("PUT", "/parse/classes/A/\(id)", body: #"{"a":{"__op":"\#(op)","objects":[1,2,3]}}"#, status: 200)
            let refused = try server.json("PUT", "/parse/classes/A/\(id)", body: #"{"a":{"__op":"\#(op)","objects":[1,2,3,4]}}"#,
                                          status: 400)
            assertError(refused, 107, "Too many objects in one \(op) operation: the maximum is 3.")
        }
        let relation = try server.json("PUT", "/parse/classes/A/\(id)",
                                       body: #"{"r":{"__op":"AddRelation","objects":[\#(ptr),\#(ptr),\#(ptr),\#(ptr)]}}"#,
                                       status: 400)
        assertError(relation, 107, "Too many objects in one AddRelation operation: the maximum is 3.")
        // A Batch of relation operations counts all of its objects.
        let batched = try server.json("PUT", "/parse/classes/A/\(id)", body: """
            {"r":{"__op":"Batch","ops":[{"__op":"AddRelation","objects":[\(ptr),\(ptr)]},\
            {"__op":"RemoveRelation","objects":[\(ptr),\(ptr)]}]}}
            """, status: 400)
        assertError(batched, 107, "Too many objects in one Batch operation: the maximum is 3.")
        // On create too.
        let created = try server.json("POST", "/parse/classes/A", body: #"{"a":{"__op":"Add","objects":[1,2,3,4]}}"#, status: 400)
        assertError(created, 107, "Too many objects in one Add operation: the maximum is 3.")
    }
}
