import XCTest
@testable import BackbeamAPI

final class BQLCorpusTests: XCTestCase {
    func testEverySpecAndSeedExampleParses() {
        // BB-086 at the parser level.
        for text in BQLCorpus.all {
            XCTAssertNoThrow(try BQLParser.parse(text), text)
        }
        XCTAssertEqual(BQLCorpus.specMustParse.count, 21)
    }

    func testSeedGuideShapes() throws {
        let collection = try BQLParser.parse("where this in ?")
        XCTAssertEqual(collection.condition, .constraint(BQLConstraint(lhs: .this, op: .in, rhs: .placeholder(0), offset: 6)))
        let remove = try BQLParser.parse("where something > ?")
        XCTAssertEqual(remove.condition?.constraints.first?.op, .greater)
        // The refresh form goes through `joins`.
        let refresh = try BQLParser.parseJoins("join something having foo > ?")
        XCTAssertEqual(refresh.joins.first?.field, "something")
        XCTAssertEqual(refresh.joins.first?.having?.constraints.first?.lhs, .field("foo"))
        XCTAssertEqual(refresh.placeholderCount, 1)
    }

    func testPlaceholderCountsOfTheMustParseList() throws {
        let counts = try BQLCorpus.specMustParse.map { try BQLParser.parse($0).placeholderCount }
        XCTAssertEqual(counts, [1, 2, 1, 1, 1, 1, 1, 0, 0, 0, 1, 2, 1, 0, 1, 4, 2, 1, 1, 1, 1])
    }
}
