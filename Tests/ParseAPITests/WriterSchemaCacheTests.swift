import XCTest
import Core
@testable import ParseAPI

/// The writer's schema cache (`SQLiteParseStore.writerSchemas`, a `WriterCache`) seen through the API: every
/// write sees the schema as the writes before it left it.
final class WriterSchemaCacheRouteTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws { server = try ParseTestServer() }
    override func tearDown() { server.stop() }

    private func mismatch(_ field: String, expected: String, got: String) -> JSON {
        ["code": 111, "error": .string("schema mismatch for Probe.\(field); expected \(expected) but got \(got)")]
    }

    func testAFieldAddedByOneCreateBindsTheNext() throws {
        try server.json("POST", "/parse/classes/Probe", body: #"{"a":1}"#, status: 201)
        XCTAssertEqual(try server.json("POST", "/parse/classes/Probe", body: #"{"a":"x"}"#, status: 400),
                       mismatch("a", expected: "Number", got: "String"))
        try server.json("POST", "/parse/classes/Probe", body: #"{"a":2,"b":true}"#, status: 201)
        XCTAssertEqual(try server.json("POST", "/parse/classes/Probe", body: #"{"b":3}"#, status: 400),
                       mismatch("b", expected: "Boolean", got: "Number"))
    }

    func testSchemaEndpointChangesBindTheNextCreate() throws {
        try server.json("POST", "/parse/classes/Probe", body: #"{"a":1}"#, status: 201)
        try server.json("PUT", "/parse/schemas/Probe", headers: ParseTestServer.headers(master: true),
                        body: #"{"fields":{"c":{"type":"String"}}}"#, status: 200)
        XCTAssertEqual(try server.json("POST", "/parse/classes/Probe", body: #"{"c":5}"#, status: 400),
                       mismatch("c", expected: "String", got: "Number"))
        // Dropping the class forgets its types.
        try server.json("DELETE", "/parse/purge/Probe", headers: ParseTestServer.headers(master: true), status: 200)
        try server.json("DELETE", "/parse/schemas/Probe", headers: ParseTestServer.headers(master: true), status: 200)
        try server.json("POST", "/parse/classes/Probe", body: #"{"a":"now text","c":5}"#, status: 201)
    }

    func testAFieldFromARolledBackBatchIsNotKept() throws {
        try server.json("POST", "/parse/classes/Probe", body: #"{"a":1}"#, status: 201)
        // The first item adds `d` as a Number; the second fails, so the whole transaction rolls back.
        let batch = #"""
            {"transaction":true,"requests":[
              {"method":"POST","path":"/parse/classes/Probe","body":{"d":1}},
              {"method":"POST","path":"/parse/classes/Probe","body":{"a":"not a number"}}]}
            """#
        let reply = try server.request("POST", "/parse/batch", body: batch)
        XCTAssertEqual(reply.status, 400, reply.text)
        try server.json("POST", "/parse/classes/Probe", body: #"{"d":"text after all"}"#, status: 201)
        let schema = try server.json("GET", "/parse/schemas/Probe", headers: ParseTestServer.headers(master: true), status: 200)
        XCTAssertEqual(schema["fields"]?["d"]?["type"], "String")
    }
}
