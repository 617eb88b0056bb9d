import XCTest
@testable import Storage

/// Objects kept with a connection (`Database.attachment`): made once per connection and type, then the same
/// object on every call; never shared with another connection.
final class DatabaseAttachmentTests: XCTestCase {
    private final class Memo {
        var values: [Int] = []
    }

    private final class OtherMemo {}

    func testOneObjectPerConnectionAndType() throws {
        let dir = try makeTemporaryDirectory(self)
        let a = try Database(path: dir + "/db.sqlite3")
        let b = try Database(path: dir + "/db.sqlite3")
        var made = 0
        let first = a.attachment(Memo.self) { made += 1; return Memo() }
        first.values.append(1)
        let again = a.attachment(Memo.self) { made += 1; return Memo() }
        XCTAssertTrue(first === again)
        XCTAssertEqual(again.values, [1])
        XCTAssertEqual(made, 1, "made on first use only")

        let other = b.attachment(Memo.self) { made += 1; return Memo() }
        XCTAssertFalse(other === first, "another connection has its own")
        XCTAssertEqual(other.values, [])
        XCTAssertEqual(made, 2)

        // Another type is kept beside it, not in its place.
        _ = a.attachment(OtherMemo.self) { OtherMemo() }
        XCTAssertTrue(a.attachment(Memo.self) { Memo() } === first)
    }

    func testAttachmentGoesWithItsConnection() throws {
        let dir = try makeTemporaryDirectory(self)
        weak var kept: Memo?
        do {
            let db = try Database(path: dir + "/db.sqlite3")
            kept = db.attachment(Memo.self) { Memo() }
            XCTAssertNotNil(kept)
        }
        XCTAssertNil(kept, "freed with the connection")
    }
}
