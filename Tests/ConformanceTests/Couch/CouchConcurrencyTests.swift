import Foundation
import XCTest
import Core

/// Checklist CD-168: concurrent writers of one revision (spec §5.10).
final class CouchConcurrencyTests: CouchTestCase {
    func test_CD_168_fiftyConcurrentUpdatesOfOneRevisionHaveOneWinner() throws {
        let rev = try put("doc", #"{"n":0}"#)
        let statuses = StatusList()
        let server = self.server!
        let auth = Self.basic("admin", Self.password)
        DispatchQueue.concurrentPerform(iterations: 50) { i in
            let r = try? server.request("PUT", "/couch/db/doc", headers: [("Authorization", auth),
                                                                          ("Content-Type", "application/json")],
                                        body: #"{"_rev":"\#(rev)","n":\#(i + 1)}"#)
            statuses.append(r?.status ?? 0)
        }
        XCTAssertEqual(statuses.all.filter { $0 == 201 }.count, 1, "\(statuses.all)")
        XCTAssertEqual(statuses.all.filter { $0 == 409 }.count, 49, "\(statuses.all)")
        XCTAssertEqual(try info()["update_seq"]?.int64Value, 2)
    }
}

/// Statuses collected from several threads.
private final class StatusList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ status: Int) { lock.withLock { items.append(status) } }
    var all: [Int] { lock.withLock { items } }
}
