import XCTest
import Core
import HTTP
@testable import CouchAPI

/// `_changes` parameters (spec §3.11.1) and the bytes of its answers (§3.11.2–3.11.7).
final class ChangesOptionsTests: XCTestCase {
    private func options(_ text: String, maxWait: Int = 60_000, lastEventID: String? = nil) throws -> ChangesOptions {
        try ChangesOptions(QueryParameters(form: FormParameters.parse(Substring(text))), maxWait: maxWait,
                           lastEventID: lastEventID)
    }

    private func reason(_ text: String) -> String? {
        do {
            _ = try options(text)
            return nil
        } catch {
            return (error as? CouchError)?.reason ?? "\(error)"
        }
    }

    func testDefaultsAndClamping() throws {
        let plain = try options("")
        XCTAssertEqual(plain.feed, .normal)
        XCTAssertEqual(plain.since, .sequence(0))
        XCTAssertNil(plain.limit)
        XCTAssertNil(plain.heartbeat)
        XCTAssertEqual(plain.timeout, 60_000)
        XCTAssertEqual(try options("feed=live").feed, .continuous)
        XCTAssertEqual(try options("timeout=600000", maxWait: 2000).timeout, 2000)
        // CD-153 at the default `couch.changesTimeout`: `timeout=600000` without a heartbeat ends by 60 s.
        XCTAssertEqual(try options("timeout=600000", maxWait: CouchConfig().changesTimeout).timeout, 60_000)
        XCTAssertNil(try options("timeout=600000", maxWait: CouchConfig().changesTimeout).heartbeat)
        XCTAssertEqual(try options("heartbeat=true", maxWait: 2000).heartbeat, 2000)
        XCTAssertEqual(try options("heartbeat=300000").heartbeat, 60_000)
        XCTAssertEqual(try options("limit=0").limit, 1)
        XCTAssertEqual(try options("since=now").since, .now)
        XCTAssertEqual(try options("since=%2212%22").since, .sequence(12))
        // `descending` counts for the normal feed only.
        XCTAssertTrue(try options("descending=true").descending)
        XCTAssertFalse(try options("descending=true&feed=longpoll").descending)
    }

    func testLastEventIDOverridesSinceForEventSourceOnly() throws {
        XCTAssertEqual(try options("feed=eventsource&since=1", lastEventID: "3").since, .sequence(3))
        XCTAssertEqual(try options("feed=eventsource&since=1&last-event-id=4").since, .sequence(4))
        XCTAssertEqual(try options("since=1", lastEventID: "3").since, .sequence(1))
    }

    func testLastEventIDParameterIsSinceOnEveryFeedLaterOneWins() throws {
        XCTAssertEqual(try options("last-event-id=4").since, .sequence(4))
        XCTAssertEqual(try options("feed=longpoll&last-event-id=now").since, .now)
        XCTAssertEqual(try options("since=1&last-event-id=4").since, .sequence(4))
        XCTAssertEqual(try options("last-event-id=4&since=1").since, .sequence(1))
        XCTAssertThrowsError(try options("last-event-id=x"))
    }

    func testFilters() throws {
        XCTAssertEqual(try options("filter=_doc_ids&doc_ids=%5B%22a%22%2C%22a%22%2C%22b%22%5D").selection(),
                       .documentIDs(["a", "b"]))
        XCTAssertEqual(try options("filter=_design").selection(), .design)
        XCTAssertEqual(try options("doc_ids=%5B1%5D").selection(), .all, "doc_ids without the filter is ignored")
        XCTAssertThrowsError(try options("filter=_doc_ids").selection())
        XCTAssertEqual(reason("filter=_bogus"), "unknown builtin filter name")
        XCTAssertEqual(reason("filter=d%2Ff"), "filter `d/f` is not supported by this server")
        XCTAssertEqual(reason("filter=_doc_ids&doc_ids=%7B%7D"), "`doc_ids` filter parameter is not a list of doc ids.")
        XCTAssertEqual(reason("filter=_doc_ids&doc_ids=%5B"), "invalid UTF-8 JSON")
    }

    func testErrors() {
        XCTAssertEqual(reason("feed=x"), "Supported `feed` types: normal, continuous, live, longpoll, eventsource")
        for since in ["-1", "x", "1e3", "%22%22", "99999999999999999999"] {
            XCTAssertEqual(reason("since=\(since)"), "Malformed sequence supplied in 'since' parameter.", since)
        }
        XCTAssertEqual(reason("heartbeat=0"), "The heartbeat value should be a positive integer (in milliseconds).")
        XCTAssertEqual(reason("heartbeat=x"), "Invalid heartbeat value. Expecting a positive integer value (in milliseconds).")
        XCTAssertEqual(reason("seq_interval=-2"), "invalid_seq_interval")
        XCTAssertNotNil(reason("limit=-1"))
        XCTAssertNotNil(reason("timeout=x"))
        XCTAssertNotNil(reason("style=x"))
        XCTAssertNil(reason("seq_interval=5&style=all_docs&active_only=true"))
    }

    func testRowsAndSummariesAreLaidOutAsCouchDBWritesThem() throws {
        let record = ChangeRecord(seq: 3, id: "a\"b", rowID: 1, rev: "2-x", deleted: true, body: Array("{}".utf8))
        let row = ChangesJSON.row(record, style: ChangesJSON.RowStyle())
        XCTAssertEqual(String(decoding: row, as: UTF8.self), #"{"seq":3,"id":"a\"b","changes":[{"rev":"2-x"}],"deleted":true}"#)
        let withDoc = ChangesJSON.row(record, style: ChangesJSON.RowStyle(includeDocs: true))
        XCTAssertEqual(String(decoding: withDoc, as: UTF8.self),
                       #"{"seq":3,"id":"a\"b","changes":[{"rev":"2-x"}],"deleted":true,"doc":{"_id":"a\"b","_rev":"2-x","_deleted":true}}"#)
        let body = ChangesJSON.normalBody(rows: [row, row], lastSeq: 3, pending: 1)
        XCTAssertEqual(String(decoding: body, as: UTF8.self),
                       "{\"results\":[\n" + String(decoding: row, as: UTF8.self) + ",\r\n" + String(decoding: row, as: UTF8.self)
                       + "\n],\n\"last_seq\":3,\"pending\":1}\n")
        XCTAssertEqual(String(decoding: ChangesJSON.continuousEnd(lastSeq: 3, pending: 0), as: UTF8.self),
                       "{\"last_seq\":3,\"pending\":0}\n")
        XCTAssertEqual(String(decoding: ChangesJSON.events([row], seqs: [3]), as: UTF8.self),
                       "data: " + String(decoding: row, as: UTF8.self) + "\nid: 3\n\n")
    }

    func testFeedSettingsAndTheirBounds() throws {
        let defaults = CouchConfig()
        XCTAssertEqual(defaults.changesTimeout, 60_000)
        XCTAssertEqual(defaults.maxFeedsPerUser, 20_000)
        let set = try CouchConfig(["changesTimeout": .int(1500), "maxFeedsPerUser": .int(5)])
        XCTAssertEqual(set.changesTimeout, 1500)
        XCTAssertEqual(set.maxFeedsPerUser, 5)
        // A wait below 100 ms would turn heartbeats into a busy loop; a cap of 0 would refuse every feed.
        for (key, value) in [("changesTimeout", 99), ("changesTimeout", 86_400_001), ("maxFeedsPerUser", 0)] {
            XCTAssertThrowsError(try CouchConfig([key: .int(value)]), key) {
                XCTAssertEqual(($0 as? ConfigError)?.key, "couch.\(key)")
            }
        }
    }
}
