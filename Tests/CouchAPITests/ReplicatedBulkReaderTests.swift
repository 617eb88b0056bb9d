import XCTest
import Core
@testable import CouchAPI

/// The replicated `_bulk_docs` reader gives what the general way (a JSON tree split by `DocumentInput`)
/// gives for the bodies it takes, and gives up on everything else, so that the general way answers.
final class ReplicatedBulkReaderTests: XCTestCase {
    private func read(_ body: String, maxElements: Int = 1000) -> [ReplicatedBulkReader.Element]? {
        ReplicatedBulkReader.read(Array(body.utf8), maxElements: maxElements, maxDocIDLength: 2048)
    }

    /// The reader's elements equal the general way's split of the same body.
    private func assertSameAsTree(_ body: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let elements = try XCTUnwrap(read(body), body, file: file, line: line)
        let docs = try XCTUnwrap(CouchJSON.parseRequest(Array(body.utf8))["docs"]?.arrayValue, file: file, line: line)
        XCTAssertEqual(elements.count, docs.count, file: file, line: line)
        for (element, doc) in zip(elements, docs) {
            let input = try DocumentInput(doc)
            XCTAssertEqual(String(decoding: element.body, as: UTF8.self), JSON.object(input.body).serialized(),
                           file: file, line: line)
            XCTAssertEqual(element.id, input.id, file: file, line: line)
            XCTAssertEqual(element.rev, doc["_rev"]?.stringValue, file: file, line: line)
            XCTAssertEqual(element.revisions, input.revisions, file: file, line: line)
            XCTAssertEqual(element.deleted, input.deleted, file: file, line: line)
            XCTAssertEqual(element.attachments, input.attachments, file: file, line: line)
        }
    }

    func testReplicatorBodiesSplitAsTheTreeSplitsThem() throws {
        let ids = #"["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","cccccccccccccccccccccccccccccccc"]"#
        try assertSameAsTree(#"{"new_edits":false,"docs":[{"_id":"a","_rev":"3-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","_revisions":{"start":3,"ids":\#(ids)},"type":"item","n":1,"ok":true}]}"#)
        // `new_edits` after `docs` (how CouchDB's replicator writes it), whitespace, escapes in the body, a
        // tombstone, a `_rev` alone, echoed read-only members, nested bodies and an attachment stub.
        try assertSameAsTree("""
            { "docs" : [
                { "x" : "caf\\u00e9 \\/ \\"q\\"" , "_id" : "b\\u00e9" , "_rev" : "1-abc" , "n" : [ 1.50 , -0 , 1e3 ] },
                { "_deleted" : true , "_id" : "c" , "_revisions" : { "ids" : [ "x1" ] , "start" : 7, "other": [1] } },
                { "_id": "d", "_rev": "2-def", "_conflicts": [], "_revs_info": {}, "_local_seq": 1, "_deleted_conflicts": 0,
                  "nested": {"a": {"b": [{}, []]}}, "_attachments": {"f.txt": {"stub": true, "revpos": 1}} },
                { "_id": "_design/e", "_rev": "1-x", "\\u0041b": 1 }
              ] ,
              "all_or_nothing" : "ignored" , "new_edits" : false }
            """)
        // Members of `_revisions` other than `start` and `ids` are passed over, whatever they hold.
        try assertSameAsTree(#"{"new_edits":false,"docs":[{"_id":"r","_revisions":{"x":{"a":"q\"],}","b":[[{}],"}"]},"start":2,"y":-1.5e3,"ids":["aa","bb"],"z":"\u0022"}}]}"#)
        XCTAssertEqual(read(#"{"new_edits":false,"docs":[{"_id":"r","_revisions":{"start":2,"ids":["aa","bb"]}}]}"#)?.first?.revisions?.newest.description, "2-aa")
        XCTAssertEqual(read(#"{"new_edits":false,"docs":[]}"#)?.count, 0)
        XCTAssertEqual(read(#"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x"}]}"#)?.first.map { Array($0.body) },
                       Array("{}".utf8))
    }

    /// Everything the reader leaves to the general way: other shapes, and every fault it would answer.
    func testGivesUpOnWhatTheGeneralWayDecides() {
        let element = #"{"_id":"a","_rev":"1-x"}"#
        let cases = [
            #"{"docs":[\#(element)]}"#,                                          // interactive
            #"{"new_edits":true,"docs":[\#(element)]}"#,
            #"{"new_edits":"no","docs":[\#(element)]}"#,
            #"{"new_edits":false}"#,                                             // no docs
            #"{"new_edits":false,"docs":{}}"#,
            #"{"new_edits":false,"docs":[5]}"#,
            #"{"new_edits":false,"docs":[\#(element)],"new_edits":false}"#,     // repeated keys, at each level
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x","v":1,"\u0076":2}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x","v":{"k":1,"k":1}}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_id":"b","_rev":"1-x"}]}"#,
            #"{"new_edits":false,"docs":[\#(element)]"#,                         // bad JSON
            #"{"new_edits":false,"docs":[\#(element)]}x"#,
            "\u{FEFF}{\"new_edits\":false,\"docs\":[]}",
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x","v":1e999}]}"#,
            #"{"new_edits":false,"docs":[{"_rev":"1-x"}]}"#,                     // no _id: one is generated
            #"{"new_edits":false,"docs":[{"_id":"_local/a","_rev":"1-x"}]}"#,   // _local
            #"{"new_edits":false,"docs":[{"_id":"_bad","_rev":"1-x"}]}"#,       // bad ids
            #"{"new_edits":false,"docs":[{"_id":"","_rev":"1-x"}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a\u0000","_rev":"1-x"}]}"#,
            #"{"new_edits":false,"docs":[{"_id":5,"_rev":"1-x"}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a"}]}"#,                        // no revision
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"x"}]}"#,             // bad revisions
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":5}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_revisions":{"start":1,"ids":[]}}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_revisions":{"start":1.0,"ids":["x"]}}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_revisions":{"start":1,"ids":[5]}}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_revisions":{"start":1,"ids":"x"}}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_revisions":{"start":1,"ids":["zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"]}}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_revisions":[]}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x","_deleted":1}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x","_attachments":[]}]}"#,
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x","_access":["u"]}]}"#,  // kept in the body
            #"{"new_edits":false,"docs":[{"_id":"a","_rev":"1-x","_other":1}]}"#,       // refused member
        ]
        for body in cases { XCTAssertNil(read(body), body) }
        // More elements than allowed: the general way's 413.
        XCTAssertNil(read(#"{"new_edits":false,"docs":[\#(element),\#(element)]}"#, maxElements: 1))
        XCTAssertNotNil(read(#"{"new_edits":false,"docs":[\#(element),\#(element)]}"#, maxElements: 2))
    }

    func testOnlyBodiesNamingNewEditsNearAnEndAreTried() {
        XCTAssertTrue(ReplicatedBulkReader.mayApply(Array(#"{"new_edits":false,"docs":[]}"#.utf8)))
        let docs = "[" + Array(repeating: #"{"_id":"a","_rev":"1-x","pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#, count: 20)
            .joined(separator: ",") + "]"
        XCTAssertTrue(ReplicatedBulkReader.mayApply(Array(#"{"docs":\#(docs),"new_edits":false}"#.utf8)))
        XCTAssertFalse(ReplicatedBulkReader.mayApply(Array(#"{"docs":\#(docs)}"#.utf8)))
    }
}
