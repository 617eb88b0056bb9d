import XCTest
import Core
@testable import ParseAPI

/// Large creates and updates are computed before they are queued (`PreparedWrites`); the write job uses the
/// preparation only while its snapshot is current, and answers its errors only after its own checks.
final class PreparedWriteTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws { server = try ParseTestServer() }
    override func tearDown() { server?.stop() }

    private var store: any ParseStore { server.service.app.store }
    private var config: ParseConfig { server.service.app.config }

    private func body(_ text: String) throws -> JSONObject { try XCTUnwrap(try JSONParser.parse(text).objectValue) }

    private func object(_ id: String) throws -> JSON { try server.json("GET", "/parse/classes/P/\(id)", status: 200) }

    func testACurrentPreparedCreateIsWhatIsStored() throws {
        try server.json("POST", "/parse/classes/P", body: #"{"a":0}"#, status: 201)
        let config = self.config
        let schema = try store.read { try Schemas.load("P", $0) }
        // Prepared from another body than the job's: the job stores what was prepared, computing nothing.
        let prepared = PreparedCreate(try WriteRequest.create(try body(#"{"a":2}"#), className: "P", config: config,
                                                               caller: .master), schema: schema, config: config)
        let w = try WriteRequest.create(try body(#"{"a":1}"#), className: "P", config: config, caller: .master)
        let result = try store.write { tx in try ObjectWriter(tx: tx, caller: .master, config: config).create("P", w, prepared: prepared) }
        XCTAssertEqual(try object(result.object.objectId)["a"], 2)
    }

    func testAPreparedUpdateIsStaleOnceTheRowChanged() throws {
        let id = try XCTUnwrap(try server.json("POST", "/parse/classes/P", body: #"{"n":1}"#, status: 201)["objectId"]?.stringValue)
        let config = self.config
        let w = try WriteRequest.update(try body(#"{"n":{"__op":"Increment","amount":1}}"#), className: "P")
        let row = try XCTUnwrap(try store.readStatement { try $0.storedObject("P", id) })
        let prepared = try XCTUnwrap(PreparedUpdate(w, base: row))
        try server.json("PUT", "/parse/classes/P/\(id)", body: #"{"n":10}"#, status: 200)
        XCTAssertThrowsError(try store.write { tx in
            try ObjectWriter(tx: tx, caller: .master, config: config).update("P", id, w, prepared: prepared)
        }) { XCTAssertTrue($0 is StalePreparation, "\($0)") }
        XCTAssertEqual(try object(id)["n"], 10)
        // Prepared again from the current row, it applies: 10 + 1, not 1 + 1.
        let current = try XCTUnwrap(try store.readStatement { try $0.storedObject("P", id) })
        let fresh = try XCTUnwrap(PreparedUpdate(w, base: current))
        let result = try store.write { tx in
            try ObjectWriter(tx: tx, caller: .master, config: config).update("P", id, w, prepared: fresh)
        }
        XCTAssertEqual(result.echo, ["n": 11])
        XCTAssertEqual(try object(id)["n"], 11)
    }

    /// The preparation failed (Increment on a string); a caller who may not write the object still gets
    /// 101, as without preparation, and learns nothing about the field.
    func testAPreparedErrorIsAnsweredOnlyAfterThePermissionChecks() throws {
        let id = try XCTUnwrap(try server.json("POST", "/parse/classes/P", headers: ParseTestServer.headers(master: true),
                                               body: #"{"s":"text","ACL":{}}"#, status: 201)["objectId"]?.stringValue)
        let config = self.config
        let w = try WriteRequest.update(try body(#"{"s":{"__op":"Increment","amount":1}}"#), className: "P")
        let row = try XCTUnwrap(try store.readStatement { try $0.storedObject("P", id) })
        let prepared = try XCTUnwrap(PreparedUpdate(w, base: row))
        XCTAssertThrowsError(try prepared.outcome.get()) { XCTAssertEqual(($0 as? ParseError)?.code, 111) }
        XCTAssertThrowsError(try store.write { tx in
            try ObjectWriter(tx: tx, caller: .publicCaller, config: config).update("P", id, w, prepared: prepared)
        }) { XCTAssertEqual($0 as? ParseError, .objectNotFound) }
        XCTAssertThrowsError(try store.write { tx in
            try ObjectWriter(tx: tx, caller: .master, config: config).update("P", id, w, prepared: prepared)
        }) { XCTAssertEqual(($0 as? ParseError)?.code, 111) }
    }

    /// Only defaults and required fields shape a created object: a field added since keeps a preparation
    /// current; a new default makes it stale (refused, or computed in the job inside a transactional batch).
    func testOnlyDefaultsAndRequiredFieldsMakeAPreparedCreateStale() throws {
        try server.json("POST", "/parse/classes/P", body: #"{"a":0}"#, status: 201)
        let config = self.config
        let schema = try store.read { try Schemas.load("P", $0) }
        let w = try WriteRequest.create(try body(#"{"a":1}"#), className: "P", config: config, caller: .master)
        let prepared = PreparedCreate(try WriteRequest.create(try body(#"{"a":2}"#), className: "P", config: config,
                                                              caller: .master), schema: schema, config: config)
        try server.json("POST", "/parse/classes/P", body: #"{"b":"x"}"#, status: 201)
        let kept = try store.write { tx in try ObjectWriter(tx: tx, caller: .master, config: config).create("P", w, prepared: prepared) }
        XCTAssertEqual(try object(kept.object.objectId)["a"], 2)
        try server.json("PUT", "/parse/schemas/P", headers: ParseTestServer.headers(master: true),
                        body: #"{"fields":{"c":{"type":"String","defaultValue":"d"}}}"#, status: 200)
        XCTAssertThrowsError(try store.write { tx in
            try ObjectWriter(tx: tx, caller: .master, config: config).create("P", w, prepared: prepared)
        }) { XCTAssertTrue($0 is StalePreparation, "\($0)") }
        let computed = try store.write { tx in
            try ObjectWriter(tx: tx, caller: .master, config: config).create("P", w, prepared: prepared, staleFallsBack: true)
        }
        let stored = try object(computed.object.objectId)
        XCTAssertEqual(stored["a"], 1)
        XCTAssertEqual(stored["c"], "d")
    }

    /// A transactional batch computes its creates before its job; the results are those of running them in
    /// order: fields added by earlier items, defaults, and an item whose class gained a default meanwhile.
    func testATransactionalBatchOfPreparedCreates() throws {
        try server.json("POST", "/parse/schemas/Q", headers: ParseTestServer.headers(master: true),
                        body: #"{"fields":{"d":{"type":"Number","defaultValue":7}}}"#, status: 200)
        let items = (0..<50).map { #"{"method":"POST","path":"/parse/classes/Q","body":{"n":\#($0),"f\#($0 % 3)":true}}"# }
        let reply = try server.json("POST", "/parse/batch",
                                    body: #"{"transaction":true,"requests":[\#(items.joined(separator: ","))]}"#, status: 200)
        let ids = reply.arrayValue?.compactMap { $0["success"]?["objectId"]?.stringValue } ?? []
        XCTAssertEqual(ids.count, 50)
        XCTAssertEqual(reply[0]?["success"]?["d"], 7)
        let found = try server.json("GET", "/parse/classes/Q?order=n&limit=100", status: 200)["results"]?.arrayValue ?? []
        XCTAssertEqual(found.map { $0["n"] }, (0..<50).map { .int($0) })
        XCTAssertTrue(found.allSatisfy { $0["d"] == 7 })
        XCTAssertEqual(found[4]["f1"], true)
        // A failing item still rolls the whole batch back.
        let failing = #"{"transaction":true,"requests":[{"method":"POST","path":"/parse/classes/Q","body":{"n":100}},"#
            + #"{"method":"POST","path":"/parse/classes/Q","body":{"n":"not a number"}}]}"#
        try server.json("POST", "/parse/batch", body: failing, status: 400)
        XCTAssertEqual(try server.json("GET", "/parse/classes/Q?count=1&limit=0", status: 200)["count"], 50)
    }

    func testThePreparedLimitRefusalAndTypesAreStillAppliedInTheJob() throws {
        try server.json("POST", "/parse/classes/P", body: #"{"a":0}"#, status: 201)
        let config = self.config
        let schema = try store.read { try Schemas.load("P", $0) }
        // The types were computed with the preparation; the job checks them against the schema it finds.
        let mismatched = try WriteRequest.create(try body(#"{"a":"text"}"#), className: "P",
                                                 config: config, caller: .master)
        let prepared = PreparedCreate(mismatched, schema: schema, config: config)
        XCTAssertEqual(prepared.schemaTypes.map(\.field), ["a"])
        XCTAssertThrowsError(try store.write { tx in
            try ObjectWriter(tx: tx, caller: .master, config: config).create("P", mismatched, prepared: prepared)
        }) { XCTAssertEqual(($0 as? ParseError)?.code, 111) }
        // A write over `maxFieldsPerWrite` is refused by the job as it is without a preparation.
        var narrowed = config
        narrowed.maxFieldsPerWrite = 1
        let limited = narrowed
        let wide = try WriteRequest.create(try body(#"{"a":1,"b":2}"#), className: "P", config: limited, caller: .master)
        let refused = PreparedCreate(wide, schema: schema, config: limited)
        XCTAssertEqual(refused.limitError?.code, 107)
        XCTAssertThrowsError(try store.write { tx in
            try ObjectWriter(tx: tx, caller: .master, config: limited).create("P", wide, prepared: refused)
        }) { XCTAssertEqual(($0 as? ParseError)?.code, 107) }
        XCTAssertEqual(try store.read { try $0.count("P") }, 1)
    }
}
