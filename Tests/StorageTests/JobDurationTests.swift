import Foundation
import XCTest
@testable import Storage

/// The writer reports how long each job held it, so that a request which stalls every other write shows up
/// in `/metrics` and in the log.
final class JobDurationTests: XCTestCase {
    private struct Refused: Error {}

    func testEveryJobIsReportedWithTheTimeItsBodyRan() throws {
        let observer = RecordingObserver()
        let (storage, _) = try makeStorage(self, observer: observer)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n INTEGER)") }
        try storage.writeAndWait { _ in Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertThrowsError(try storage.writeAndWait { ctx -> Void in
            try ctx.db.run("INSERT INTO t VALUES (1)")
            throw Refused()
        })
        let jobs = observer.jobs
        XCTAssertEqual(jobs.count, 3)
        XCTAssertEqual(jobs.map(\.failed), [false, false, true])
        // The sleeping job held the writer at least as long as it slept; the measurement covers the body.
        XCTAssertGreaterThanOrEqual(jobs[1].seconds, 0.05)
        XCTAssertTrue(jobs.allSatisfy { $0.seconds >= 0 })
    }
}
