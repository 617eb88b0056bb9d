import Foundation
import XCTest
import Core

/// Checklist CD-039…CD-044: CouchDB-identical revision ids over the wire (spec §4.5).
final class CouchRevisionIDTests: CouchTestCase {
    func test_CD_039_firstRevisionOfAPut() throws {
        let r = try send("PUT", "/db/doc1", body: #"{"val":"r0"}"#)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(compact(r), #"{"ok":true,"id":"doc1","rev":"1-47f3268e7546965196b57572099f4372"}"#)
        XCTAssertEqual(r.header("ETag"), "\"1-47f3268e7546965196b57572099f4372\"")
        XCTAssertEqual(r.header("Location"), "http://127.0.0.1/couch/db/doc1")
    }

    func test_CD_040_updates() throws {
        let r1 = try put("doc1", #"{"val":"r0"}"#)
        let r2 = try put("doc1", #"{"_rev":"\#(r1)","val":"r1"}"#)
        XCTAssertEqual(r2, "2-1d8171ab3a91475cfece749291e6f897")
        XCTAssertEqual(try put("doc1", #"{"_rev":"\#(r2)","val":"r2"}"#), "3-3fb0a342d2ce092fdcc77856dbe8a2ef")
    }

    func test_CD_041_publishedFirstRevisions() throws {
        XCTAssertEqual(try put("a", "{}"), "1-967a00dff5e02add41819138abb3284d")
        XCTAssertEqual(try put("b", #"{"a":1}"#), "1-23202479633c2b380f79507a776743d5")
        XCTAssertEqual(try put("c", #"{"partitioned_doc":true}"#), "1-43d86359741cb629c0953a2beb6e9d7a")
    }

    func test_CD_042_moreDocumentedRevisions() throws {
        let baz = try put("baz", #"{"baz":false}"#)
        XCTAssertEqual(baz, "1-309651b95df56d52658650fb64257b97")
        XCTAssertEqual(try put("baz", #"{"_rev":"\#(baz)","baz":true}"#), "2-9b71d36dfdd9b4815388eb91cc8fb61d")
        XCTAssertEqual(try put("fish", #"{"servings":4,"subtitle":"Delicious with freshly baked bread","title":"FishStew"}"#),
                       "1-6a466d5dfda05e613ba97bd737829d67")
        XCTAssertEqual(try put("spag", #"{"description":"An Italian-American dish that usually consists of spaghetti, tomato sauce and meatballs.","ingredients":["spaghetti","tomato sauce","meatballs"],"name":"Spaghetti with meatballs"}"#),
                       "1-917fa2381192822767f010b95b45325b")
    }

    func test_CD_043_deletionOfAReplicatedRevision() throws {
        XCTAssertEqual(try put("fs", #"{"_rev":"1-9c65296036141e575d32ba9c034dd3ee"}"#, query: "?new_edits=false"),
                       "1-9c65296036141e575d32ba9c034dd3ee")
        let r = try send("DELETE", "/db/fs?rev=1-9c65296036141e575d32ba9c034dd3ee")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(json(r)["rev"]?.stringValue, "2-056f5f44046ecafc08a2bc2b9c229e20")
    }

    func test_CD_044_derivedVectorsThroughTheServer() throws {
        let vectors: [(String, String)] = [
            (#"{"a":[1,2,3]}"#, "1-308048961a84beb0c9e99e07facf0f5f"),
            (#"{"a":[1,2,300]}"#, "1-a77dc9a33f4f57596bdf0a2121a0cb5e"),
            (#"{"a":[]}"#, "1-d49a64a623a0fcc15fb2a4e9edf20834"),
            (#"{"a":1.0}"#, "1-8a159b695bf2bd957f1a435bfd6e1739"),
            (#"{"n":1e2}"#, "1-1f9f72340d02da75a0dea68a5cc01201"),
            (#"{"n":100.0}"#, "1-1f9f72340d02da75a0dea68a5cc01201"),
            (#"{"n":-1}"#, "1-7185806cde8c26c2324d4aed25219678"),
            (#"{"n":256}"#, "1-cd987f621f5e03b6e46a5814073969f1"),
            (#"{"n":12345678901234567890}"#, "1-2db86b567a9cbeac44d11299a99cb197"),
            (#"{"n":1.5}"#, "1-99db0b5dcaf48e1b5825246599f27636"),
            (#"{"k":"\u00e9\ud83d\ude00"}"#, "1-01ce826349bffb1f247c72526b5f0bcf"),
            (#"{"k":"é😀"}"#, "1-01ce826349bffb1f247c72526b5f0bcf"),
            (#"{"a":{"b":[true,null,"x"]},"c":[]}"#, "1-b9f4a3a81a4fc070a55e751026b105cc"),
            (#"{"_deleted":true}"#, "1-de715bf126efc93d225d9e3f8e8eb81a"),
            (#"{"_attachments":{"a.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="}}}"#,
             "1-8c161e6ebc477eb9060fcacc36b6c836"),
            (#"{"_attachments":{"a.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="},"b.bin":{"content_type":"application/octet-stream","data":"d29ybGQ="}}}"#,
             "1-75daf6658caf6b0303131d0883a9110b"),
        ]
        for (index, (body, rev)) in vectors.enumerated() {
            XCTAssertEqual(try put("d\(index)", body), rev, body)
        }
    }
}
