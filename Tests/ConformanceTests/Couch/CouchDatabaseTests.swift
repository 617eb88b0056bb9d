import Foundation
import XCTest
import Core

/// Checklist CD-026…CD-038: databases (spec §3.2).
final class CouchDatabaseTests: CouchTestCase {
    func test_CD_026_createAndCreateAgain() throws {
        let r = try send("PUT", "/db9")
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(compact(r), #"{"ok":true}"#)
        XCTAssertTrue(r.header("Location")?.hasSuffix("/couch/db9") ?? false, r.header("Location") ?? "")
        assertError(try send("PUT", "/db9"), 412, "file_exists", "The database could not be created, the file already exists.")
    }

    func test_CD_027_illegalNames() throws {
        for name in ["Bad", "1abc"] {
            assertError(try send("PUT", "/\(name)"), 400, "illegal_database_name",
                        "Name: '\(name)'. Only lowercase characters (a-z), digits (0-9), and any of the characters _, $, (, ), +, -, and / are allowed. Must begin with a letter.")
        }
    }

    func test_CD_028_namesWithSlashesAndSpecialCharacters() throws {
        let r = try send("PUT", "/couchdb-python%2F12")
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertTrue(r.header("Location")?.hasSuffix("couchdb-python%2F12") ?? false, r.header("Location") ?? "")
        XCTAssertTrue(try get("/_all_dbs").arrayValue?.contains(.string("couchdb-python/12")) ?? false)
        XCTAssertEqual(try get("/couchdb-python%2F12")["db_name"]?.stringValue, "couchdb-python/12")
        XCTAssertEqual(try send("PUT", "/a%24b%28c%29%2Bd-e_f").status, 201)
        XCTAssertEqual(try get("/a%24b%28c%29%2Bd-e_f")["db_name"]?.stringValue, "a$b(c)+d-e_f")
    }

    func test_CD_029_longNamesPartitionsAndIgnoredParameters() throws {
        let long = "a" + String(repeating: "b", count: 238)
        assertError(try send("PUT", "/\(long)"), 400, "database_name_too_long",
                    "At least one path segment of `\(long)` is too long.")
        assertError(try send("PUT", "/pdb?partitioned=true"), 400, "bad_request")
        XCTAssertEqual(try send("PUT", "/qdb?q=8&n=3").status, 201)
    }

    func test_CD_030_infoOfAFreshDatabase() throws {
        let r = try send("GET", "/db")
        XCTAssertEqual(r.status, 200)
        let body = json(r)
        XCTAssertEqual(body["db_name"]?.stringValue, "db")
        for key in ["doc_count", "doc_del_count", "update_seq", "purge_seq"] {
            XCTAssertEqual(body[key]?.numberValue?.text, "0", key)
        }
        let start = try XCTUnwrap(body["instance_start_time"]?.stringValue)
        XCTAssertTrue(!start.isEmpty && start.allSatisfy(\.isNumber), start)
        XCTAssertEqual(body["compact_running"]?.boolValue, false)
        for key in ["file", "external", "active"] { XCTAssertNotNil(body["sizes"]?[key]?.int64Value, key) }
    }

    func test_CD_031_headAndMissingDatabases() throws {
        let head = try send("HEAD", "/db")
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(head.header("Content-Type"), "application/json")
        let missingHead = try send("HEAD", "/nosuch")
        XCTAssertEqual(missingHead.status, 404)
        XCTAssertTrue(missingHead.body.isEmpty)
        let missing = try send("GET", "/nosuch")
        XCTAssertEqual(missing.text, "{\"error\":\"not_found\",\"reason\":\"Database does not exist.\"}\n")
    }

    func test_CD_032_allDatabasesWithOptions() throws {
        for name in ["b", "a", "c"] { XCTAssertEqual(try send("PUT", "/\(name)").status, 201) }
        // `_users` exists from the start (§3.10) and sorts first ('_' is below 'a').
        XCTAssertEqual(try get("/_all_dbs").serialized(), #"["_users","a","b","c","db"]"#)
        XCTAssertEqual(try get("/_all_dbs?limit=0").serialized(), "[]")
        XCTAssertEqual(try get("/_all_dbs?skip=2").serialized(), #"["b","c","db"]"#)
        XCTAssertEqual(try get("/_all_dbs?startkey=%22db%22&limit=1").serialized(), #"["db"]"#)
        XCTAssertEqual(try get("/_all_dbs?descending=true&limit=2").serialized(), #"["db","c"]"#)
        XCTAssertEqual(try get("/_all_dbs?start_key=%22b%22&end_key=%22c%22&inclusive_end=false").serialized(), #"["b"]"#)
        assertError(try send("GET", "/_all_dbs?limit=-1"), 400, "query_parse_error", "Invalid value for positive integer: \"-1\"")
        assertError(try send("GET", "/_all_dbs?limit=x"), 400, "query_parse_error", "Invalid value for integer: \"x\"")
        assertError(try send("GET", "/_all_dbs?descending=maybe"), 400, "query_parse_error", "Invalid boolean parameter: \"maybe\"")
    }

    func test_CD_033_deleteWithARevParameterIsRefused() throws {
        assertError(try send("DELETE", "/db?rev=1-abc"), 400, "bad_request",
                    "You tried to DELETE a database with a ?=rev parameter. Did you mean to DELETE a document instead?")
        XCTAssertEqual(try send("GET", "/db").status, 200)
    }

    func test_CD_034_deleteAndRecreate() throws {
        try put("doc", "{}")
        XCTAssertEqual(try send("PUT", "/db/_local/x", body: "{}").status, 201)
        let before = try info()["instance_start_time"]?.stringValue
        let r = try send("DELETE", "/db")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(compact(r), #"{"ok":true}"#)
        assertError(try send("GET", "/db"), 404, "not_found", "Database does not exist.")
        assertError(try send("DELETE", "/db"), 404, "not_found", "Database does not exist.")
        XCTAssertEqual(try send("PUT", "/db").status, 201)
        let after = try info()
        XCTAssertEqual(after["update_seq"]?.int64Value, 0)
        XCTAssertEqual(after["doc_count"]?.int64Value, 0)
        XCTAssertNotEqual(after["instance_start_time"]?.stringValue, before)
        assertError(try send("GET", "/db/doc"), 404, "not_found", "missing")
        assertError(try send("GET", "/db/_local/x"), 404, "not_found", "missing")
    }

    func test_CD_035_ensureFullCommit() throws {
        let start = try XCTUnwrap(info()["instance_start_time"]?.stringValue)
        for _ in 0..<2 {
            let r = try send("POST", "/db/_ensure_full_commit", body: "")
            XCTAssertEqual(r.status, 201, r.text)
            XCTAssertEqual(compact(r), #"{"ok":true,"instance_start_time":"\#(start)"}"#)
        }
    }

    func test_CD_036_ensureFullCommitContentTypes() throws {
        XCTAssertEqual(try send("POST", "/db/_ensure_full_commit", contentType: nil).status, 201)
        assertError(try send("POST", "/db/_ensure_full_commit", body: "", contentType: "text/plain"), 415, "bad_content_type",
                    "Content-Type must be application/json")
        let get = try send("GET", "/db/_ensure_full_commit")
        assertError(get, 405, "method_not_allowed", "Only POST allowed")
        XCTAssertEqual(get.header("Allow"), "POST")
    }

    func test_CD_037_revsLimit() throws {
        XCTAssertEqual(try send("GET", "/db/_revs_limit").text, "1000\n")
        let set = try send("PUT", "/db/_revs_limit", body: "5")
        XCTAssertEqual(set.status, 200)
        XCTAssertEqual(compact(set), #"{"ok":true}"#)
        XCTAssertEqual(try send("GET", "/db/_revs_limit").text, "5\n")
        for bad in [#""abc""#, "1.5", "0"] {
            assertError(try send("PUT", "/db/_revs_limit", body: bad), 400, "bad_request")
        }
        XCTAssertEqual(try send("GET", "/db/_revs_limit").text, "5\n")
    }

    func test_CD_038_compactAndViewCleanup() throws {
        let r = try send("POST", "/db/_compact", body: "")
        XCTAssertEqual(r.status, 202)
        XCTAssertEqual(compact(r), #"{"ok":true}"#)
        assertError(try send("POST", "/db/_compact/nosuch", body: ""), 404, "not_found", "missing")
        try put("_design/there", "{}")
        XCTAssertEqual(try send("POST", "/db/_compact/there", body: "").status, 202)
        XCTAssertEqual(try send("POST", "/db/_view_cleanup", body: "").status, 202)
    }
}
