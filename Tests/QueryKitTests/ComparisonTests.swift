import XCTest
import QueryKit

/// The comparison operators and the cross-type ordering they are evaluated on.
final class ComparisonTests: XCTestCase {
    func testOperatorNames() {
        for op in ComparisonOperator.allCases { XCTAssertEqual(ComparisonOperator(mongoName: op.mongoName), op) }
        XCTAssertEqual(ComparisonOperator(mongoName: "$lte"), .lessThanOrEqual)
        XCTAssertNil(ComparisonOperator(mongoName: "$ne"))
        XCTAssertNil(ComparisonOperator(mongoName: "lt"))
        for op in ComparisonOperator.allCases { XCTAssertEqual(ComparisonOperator(symbol: op.symbol), op) }
        XCTAssertEqual(ComparisonOperator(symbol: ">="), .greaterThanOrEqual)
        XCTAssertEqual(ComparisonOperator.lessThan.symbol, "<")
        XCTAssertNil(ComparisonOperator(symbol: "!="))
        XCTAssertNil(ComparisonOperator(symbol: "=="))
    }

    func testKeysOrderByFamilyThenNumberThenText() {
        let keys = [CollationKey(family: 0), CollationKey(family: 1, number: -2), CollationKey(family: 1, number: 3),
                    CollationKey(family: 2, text: "a"), CollationKey(family: 2, text: "b"), CollationKey(family: 3, number: 0, text: "")]
        XCTAssertEqual(keys.shuffled().sorted(), keys)
        XCTAssertEqual(CollationKey(family: 1, number: 2), CollationKey(family: 1, number: 2, text: ""))
    }

    func testRangesHoldWithinOneFamilyOnly() {
        let one = CollationKey(family: 1, number: 1), two = CollationKey(family: 1, number: 2)
        let text = CollationKey(family: 2, text: "a")
        XCTAssertTrue(ComparisonOperator.lessThan.holds(one, two))
        XCTAssertFalse(ComparisonOperator.lessThan.holds(two, one))
        XCTAssertFalse(ComparisonOperator.lessThan.holds(one, one))
        XCTAssertTrue(ComparisonOperator.lessThanOrEqual.holds(one, one))
        XCTAssertTrue(ComparisonOperator.greaterThan.holds(two, one))
        XCTAssertTrue(ComparisonOperator.greaterThanOrEqual.holds(two, two))
        XCTAssertFalse(ComparisonOperator.greaterThanOrEqual.holds(one, two))
        XCTAssertTrue(ComparisonOperator.equal.holds(one, one))
        XCTAssertFalse(ComparisonOperator.equal.holds(one, two))
        // A number is neither less nor greater than a string, though its family sorts first.
        for op in ComparisonOperator.allCases {
            XCTAssertFalse(op.holds(one, text), "\(op)")
            XCTAssertFalse(op.holds(text, one), "\(op)")
        }
    }
}
