import XCTest
@testable import CouchAPI

/// `liveWinnerIfAtHand`: the same bytes as `winner` for a small live document, nil for everything the
/// worker path must answer.
final class StoreWinnerAtHandTests: XCTestCase {
    private func copy(_ winner: StoredWinner) -> [String] {
        [String(decoding: winner.rev, as: UTF8.self), String(decoding: winner.body, as: UTF8.self),
         winner.attachments.map { String(decoding: $0, as: UTF8.self) } ?? "-", "\(winner.deleted)"]
    }

    func testSameBytesAsTheWinnerRead() throws {
        let fixture = try StoreFixture(self)
        _ = try fixture.store.createDatabase(name: "db", createdMicros: 1)
        _ = try fixture.put("db", "doc", #"{"a":1,"b":"x"}"#)
        let atHand = try fixture.store.liveWinnerIfAtHand(database: "db", docID: "doc", maxSize: 1024, copy)
        guard case .found(let full) = try fixture.store.winner(database: "db", docID: "doc", copy) else {
            return XCTFail("no winner")
        }
        XCTAssertEqual(atHand, full)
        XCTAssertEqual(atHand?[1], #"{"a":1,"b":"x"}"#)
    }

    func testNilForWhatTheWorkerPathAnswers() throws {
        let fixture = try StoreFixture(self)
        _ = try fixture.store.createDatabase(name: "db", createdMicros: 1)
        let rev = fixture.revision(try fixture.put("db", "gone", #"{"a":1}"#))
        _ = try fixture.put("db", "gone", #"{"_deleted":true}"#, rev: rev)
        _ = try fixture.put("db", "big", "{\"pad\":\"" + String(repeating: "x", count: 2000) + "\"}")
        _ = try fixture.put("db", "small", #"{"a":1}"#)
        func atHand(_ db: String, _ id: String, _ max: Int = 1024) throws -> [String]? {
            try fixture.store.liveWinnerIfAtHand(database: db, docID: id, maxSize: max, copy)
        }
        XCTAssertNil(try atHand("db", "gone"), "a deleted winner")
        XCTAssertNil(try atHand("db", "nosuch"), "a missing document")
        XCTAssertNil(try atHand("nodb", "small"), "a missing database")
        XCTAssertNil(try atHand("db", "big"), "a document over the size given")
        XCTAssertNotNil(try atHand("db", "big", 4096))
        XCTAssertNotNil(try atHand("db", "small"))
    }
}
