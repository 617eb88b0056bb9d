import XCTest
import Core
@testable import CouchAPI

/// Special members of a body (§4.6), `_revisions` validation, and `_local` bodies (§3.4).
final class DocumentInputTests: XCTestCase {
    private func input(_ json: String) throws -> DocumentInput { try DocumentInput(CouchJSON.parse(Array(json.utf8))) }

    private func assertError(_ json: String, _ expected: CouchError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try input(json), json, file: file, line: line) { error in
            XCTAssertEqual(error as? CouchError, expected, json, file: file, line: line)
        }
    }

    func testPlainBodyIsKeptAsIs() throws {
        let doc = try input(#"{"b":1,"a":[2],"é":null}"#)
        XCTAssertEqual(doc.body.keys, ["b", "a", "é"])
        XCTAssertNil(doc.id)
        XCTAssertNil(doc.rev)
        XCTAssertFalse(doc.deleted)
        XCTAssertNil(doc.namedRevision)
    }

    func testSpecialMembersAreStrippedAndKeptOnesStayInPlace() throws {
        let doc = try input(#"{"x":1,"_id":"d","_rev":"1-abc","_access":["u"],"_deleted":true,"_conflicts":[],"y":2,"_revs_info":0,"_local_seq":1,"_deleted_conflicts":2,"_replication_state":"s","_attachments":{"a":{}}}"#)
        XCTAssertEqual(doc.body.keys, ["x", "_access", "y", "_replication_state"])
        XCTAssertEqual(doc.id, "d")
        XCTAssertEqual(doc.rev?.description, "1-abc")
        XCTAssertTrue(doc.deleted)
        XCTAssertEqual(doc.attachments?.keys, ["a"])
        for kept in ["_replication_state_time", "_replication_state_reason", "_replication_id", "_replication_stats"] {
            XCTAssertEqual(try input("{\"\(kept)\":1}").body.keys, [kept])
        }
    }

    func testBadSpecialMembers() {
        assertError(#"{"_foo":1}"#, .badSpecialMember("_foo"))
        assertError(#"{"_deleted":"true"}"#, .badSpecialMember("_deleted"))
        assertError(#"{"_attachments":[]}"#, .badSpecialMember("_attachments"))
        assertError(#"{"_revisions":[]}"#, .badSpecialMember("_revisions"))
        assertError(#"{"_rev":1}"#, .invalidRevFormat)
        assertError(#"{"_rev":"x"}"#, .invalidRevFormat)
        assertError(#"{"_id":5}"#, .illegalDocID("Document id must be a string"))
        assertError(#"{"_id":"_x"}"#, .illegalDocID("Only reserved document ids may start with underscore."))
        assertError("[]", .documentNotObject)
        assertError(#""doc""#, .documentNotObject)
        // The first bad member in body order decides.
        assertError(#"{"_foo":1,"_deleted":2}"#, .badSpecialMember("_foo"))
        assertError(#"{"_deleted":2,"_foo":1}"#, .badSpecialMember("_deleted"))
        assertError(#"{"_id":"","_rev":"x"}"#, .illegalDocID("Document id must not be empty"))
    }

    func testIDLengthLimitIsConfigurable() throws {
        XCTAssertThrowsError(try DocumentInput(["_id": "abcd"], maxDocIDLength: 3)) {
            XCTAssertEqual($0 as? CouchError, .illegalDocID("Document id is too long"))
        }
    }

    func testRevisionsMember() throws {
        let doc = try input(#"{"_revisions":{"start":3,"ids":["c","B","47F3268E7546965196B57572099F4372"]}}"#)
        XCTAssertEqual(doc.revisions?.revisions.map(\.description), ["3-c", "2-B", "1-47f3268e7546965196b57572099f4372"])
        XCTAssertEqual(doc.namedRevision?.description, "3-c")
        XCTAssertEqual(try doc.replicatedPath().newest.description, "3-c")
        XCTAssertEqual(doc.revisions?.json.serialized(), #"{"start":3,"ids":["c","B","47f3268e7546965196b57572099f4372"]}"#)
    }

    func testRevisionsOverrideRevWhereverTheyAre() throws {
        XCTAssertEqual(try input(#"{"_rev":"1-a","_revisions":{"start":5,"ids":["e"]}}"#).namedRevision?.description, "5-e")
        XCTAssertNil(try input(#"{"_revisions":{"start":5,"ids":["e"]},"_rev":"1-a"}"#).rev)
        // `_rev` is ignored, not parsed, when `_revisions` is present.
        XCTAssertNoThrow(try input(#"{"_rev":"junk","_revisions":{"start":5,"ids":["e"]}}"#))
    }

    func testRevisionsValidationTexts() {
        assertError(#"{"_revisions":{"ids":["a"]}}"#, .docValidation("_revisions.start isn't an integer."))
        assertError(#"{"_revisions":{"start":"1","ids":["a"]}}"#, .docValidation("_revisions.start isn't an integer."))
        assertError(#"{"_revisions":{"start":1.0,"ids":["a"]}}"#, .docValidation("_revisions.start isn't an integer."))
        assertError(#"{"_revisions":{"start":1e0,"ids":["a"]}}"#, .docValidation("_revisions.start isn't an integer."))
        assertError(#"{"_revisions":{"start":1}}"#, .docValidation("_revisions.ids isn't a array."))
        assertError(#"{"_revisions":{"start":1,"ids":"a"}}"#, .docValidation("_revisions.ids isn't a array."))
        assertError(#"{"_revisions":{"start":2,"ids":["a",1]}}"#, .docValidation("RevId isn't a string"))
        assertError(#"{"_revisions":{"start":1,"ids":["zz3268e7546965196b57572099f4372z"]}}"#,
                    .docValidation("RevId isn't a valid hexadecimal"))
        // Start is checked before ids, ids' type before their elements.
        assertError(#"{"_revisions":{"start":null,"ids":5}}"#, .docValidation("_revisions.start isn't an integer."))
    }

    func testRevisionsBoundsBeyondCouchDB() {
        assertError(#"{"_revisions":{"start":1,"ids":[]}}"#, .docValidation("_revisions.ids must not be empty."))
        assertError(#"{"_revisions":{"start":1,"ids":["a","b"]}}"#,
                    .docValidation("_revisions.start must not be less than the number of _revisions.ids."))
        assertError(#"{"_revisions":{"start":0,"ids":["a"]}}"#,
                    .docValidation("_revisions.start must not be less than the number of _revisions.ids."))
        assertError(#"{"_revisions":{"start":-5,"ids":["a"]}}"#,
                    .docValidation("_revisions.start must not be less than the number of _revisions.ids."))
        assertError(#"{"_revisions":{"start":-99999999999999999999999,"ids":["a"]}}"#,
                    .docValidation("_revisions.start must not be less than the number of _revisions.ids."))
        assertError(#"{"_revisions":{"start":2147483648,"ids":["a"]}}"#, .invalidRevFormat)
        assertError(#"{"_revisions":{"start":99999999999999999999999,"ids":["a"]}}"#, .invalidRevFormat)
        assertError(#"{"_revisions":{"start":1,"ids":[""]}}"#, .invalidRevFormat)
        assertError(#"{"_revisions":{"start":1,"ids":["a b"]}}"#, .invalidRevFormat)
        XCTAssertNoThrow(try input(#"{"_revisions":{"start":2147483647,"ids":["a"]}}"#))
    }

    func testReplicatedPathNeedsARevision() throws {
        XCTAssertThrowsError(try input("{}").replicatedPath()) { XCTAssertEqual($0 as? CouchError, .newEditsFalseNeedsRev) }
        XCTAssertEqual(try input(#"{"_rev":"4-d"}"#).replicatedPath().revisions.map(\.description), ["4-d"])
        XCTAssertThrowsError(try input(#"{"_rev":"0-d"}"#).replicatedPath()) {
            XCTAssertEqual($0 as? CouchError, .invalidRevFormat)
        }
    }

    // MARK: _local documents

    private func local(_ json: String) throws -> LocalDocumentInput { try LocalDocumentInput(CouchJSON.parse(Array(json.utf8))) }

    func testLocalRevisionsIncrementTheSuppliedNumber() throws {
        XCTAssertEqual(try local("{}").newRev, "0-1")
        XCTAssertEqual(try local(#"{"_rev":"0-3","a":1}"#).newRev, "0-4")
        XCTAssertEqual(try local(#"{"_rev":"0-0009"}"#).newRev, "0-10")
        XCTAssertEqual(try local(#"{"_rev":"0-3","a":1,"_id":"_local/x"}"#).body.keys, ["a"])
        XCTAssertEqual(try LocalRevision.number(parsing: "0-9223372036854775806"), 9_223_372_036_854_775_806)
        for bad in ["1-abc", "0-x", "0-", "0-1a", "0--1", "00-1", "0-9223372036854775807", "0-99999999999999999999"] {
            XCTAssertThrowsError(try LocalRevision.number(parsing: bad), bad) { XCTAssertEqual($0 as? CouchError, .invalidRevFormat) }
        }
        XCTAssertThrowsError(try local(#"{"_rev":3}"#)) { XCTAssertEqual($0 as? CouchError, .invalidRevFormat) }
        XCTAssertEqual(LocalRevision.next(after: .max), .max)
    }

    func testLocalBodiesRefuseAttachmentsAndFollowTheOtherRules() throws {
        XCTAssertThrowsError(try local(#"{"_attachments":{}}"#)) { XCTAssertEqual($0 as? CouchError, .localAttachments) }
        XCTAssertThrowsError(try local(#"{"_attachments":5}"#)) { XCTAssertEqual($0 as? CouchError, .localAttachments) }
        XCTAssertThrowsError(try local(#"{"_bad":5}"#)) { XCTAssertEqual($0 as? CouchError, .badSpecialMember("_bad")) }
        XCTAssertThrowsError(try local(#"{"_revisions":{"start":1}}"#)) {
            XCTAssertEqual($0 as? CouchError, .docValidation("_revisions.ids isn't a array."))
        }
        XCTAssertThrowsError(try local("[1]")) { XCTAssertEqual($0 as? CouchError, .documentNotObject) }
        XCTAssertTrue(try local(#"{"_deleted":true}"#).deleted)
        XCTAssertEqual(try local(#"{"_access":1,"a":2}"#).body.keys, ["_access", "a"])
        // Replicator checkpoint bodies are opaque and kept whole.
        let checkpoint = try local(#"{"session_id":"s","source_last_seq":5,"history":[{"a":1}],"_rev":"0-1"}"#)
        XCTAssertEqual(checkpoint.body.serialized(), #"{"session_id":"s","source_last_seq":5,"history":[{"a":1}]}"#)
    }
}
