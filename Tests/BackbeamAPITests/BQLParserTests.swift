import XCTest
@testable import BackbeamAPI

final class BQLParserTests: XCTestCase {
    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> BQLQuery? {
        do { return try BQLParser.parse(text) } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return nil
        }
    }

    private func failure(_ text: String, limits: BQLLimits = BQLLimits()) -> BQLError? {
        do {
            _ = try BQLParser.parse(text, limits: limits)
            return nil
        } catch { return error }
    }

    private func c(_ field: String, _ op: BQLOperator, _ index: Int, at offset: Int) -> BQLCondition {
        .constraint(BQLConstraint(lhs: .field(field), op: op, rhs: .placeholder(index), offset: offset))
    }

    func testEmptyQueries() {
        XCTAssertEqual(parse(""), BQLQuery())
        XCTAssertEqual(parse(" \t\r\n "), BQLQuery())
        XCTAssertTrue(parse("")?.isEmpty ?? false)
    }

    func testSimpleWhere() {
        XCTAssertEqual(parse("where type=?"),
                       BQLQuery(condition: c("type", .equal, 0, at: 6), placeholderCount: 1))
        XCTAssertEqual(parse("where weight>=? and weight<=?")?.condition,
                       .and(c("weight", .greaterOrEqual, 0, at: 6), c("weight", .lessOrEqual, 1, at: 20)))
    }

    func testRightAssociativeWithoutPrecedence() {
        // BB-072: `a and b or c` = `a and (b or c)`.
        XCTAssertEqual(parse("where a=? and b=? or c=?")?.condition,
                       .and(c("a", .equal, 0, at: 6), .or(c("b", .equal, 1, at: 14), c("c", .equal, 2, at: 21))))
        // `(a and b) or c or d and e` = `(a and b) or (c or (d and e))`.
        let q = parse("where (a=? and b=?) or c=? or d=? and e=?")
        XCTAssertEqual(q?.condition,
                       .or(.and(c("a", .equal, 0, at: 7), c("b", .equal, 1, at: 15)),
                           .or(c("c", .equal, 2, at: 23), .and(c("d", .equal, 3, at: 30), c("e", .equal, 4, at: 38)))))
        XCTAssertEqual(q?.condition?.constraints.map(\.rhs), (0..<5).map(BQLValue.placeholder))
    }

    func testOperators() {
        let ops: [(String, BQLOperator)] = [("=", .equal), ("<", .less), ("<=", .lessOrEqual), (">", .greater),
                                            (">=", .greaterOrEqual), (" like ", .like), (" is ", .is),
                                            (" is not ", .isNot), (" in ", .in), (" not in ", .notIn), (" has ", .has),
                                            (" IS NOT ", .isNot), (" Not In ", .notIn), (" LIKE ", .like)]
        for (text, op) in ops {
            guard case .constraint(let constraint)? = parse("where f\(text)?")?.condition else {
                XCTFail(text)
                continue
            }
            XCTAssertEqual(constraint.op, op, text)
            XCTAssertEqual(constraint.lhs, .field("f"))
        }
    }

    func testThisSubfieldsRelationsAndNumbers() {
        guard case .constraint(let a)? = parse("where this in ?.favoriteCities")?.condition,
              case .constraint(let b)? = parse("where author.name = ?")?.condition,
              case .constraint(let d)? = parse("where this not in ?")?.condition,
              case .constraint(let e)? = parse("where score > 10.5")?.condition else {
            return XCTFail("shapes")
        }
        XCTAssertEqual(a, BQLConstraint(lhs: .this, op: .in, rhs: .placeholderRelation(0, "favoriteCities"), offset: 6))
        XCTAssertEqual(b.lhs, .subfield("author", "name"))
        XCTAssertEqual(d.op, .notIn)
        XCTAssertEqual(e.rhs, .number("10.5"))
        XCTAssertEqual(parse("where score > 10 and x = ?")?.placeholderCount, 1, "literals consume no params")
        XCTAssertEqual(parse("where some-field = ?")?.condition?.constraints.first?.lhs, .field("some-field"))
    }

    func testKeywordsAreCaseInsensitiveFieldsAreNot() {
        // BB-083.
        let q = parse("WHERE type=? SORT BY name ASC")
        XCTAssertEqual(q?.sort, BQLSort(key: .field("name"), descending: false, offset: 21))
        XCTAssertEqual(q?.condition?.constraints.first?.lhs, .field("type"))
        XCTAssertEqual(parse("where Type=?")?.condition?.constraints.first?.lhs, .field("Type"))
        XCTAssertEqual(parse("Sort By this Desc")?.sort, BQLSort(key: .this, descending: true, offset: 8))
        // Fields may be spelled like keywords where the grammar expects a field.
        XCTAssertEqual(parse("where where = ? and join = ?")?.condition?.constraints.map(\.lhs),
                       [.field("where"), .field("join")])
        XCTAssertEqual(parse("join first fetch last")?.joins, [BQLJoin(field: "first", fetch: ["last"], offset: 0)])
    }

    func testJoins() {
        let q = parse("where title like ? join last 5 comments having score > 10 fetch author sort by created_at")
        XCTAssertEqual(q?.joins.count, 1)
        XCTAssertEqual(q?.joins.first?.field, "comments")
        XCTAssertEqual(q?.joins.first?.window, .last(5))
        XCTAssertEqual(q?.joins.first?.fetch, ["author"])
        XCTAssertEqual(q?.joins.first?.having?.constraints.first?.rhs, .number("10"))
        XCTAssertEqual(q?.sort?.key, .field("created_at"))
        XCTAssertEqual(q?.placeholderCount, 1)

        let many = parse("join last 100 users join author fetch avatar, favorite_place join foo")
        XCTAssertEqual(many?.joins, [BQLJoin(field: "users", window: .last(100), offset: 0),
                                     BQLJoin(field: "author", fetch: ["avatar", "favorite_place"], offset: 20),
                                     BQLJoin(field: "foo", offset: 61)])
        XCTAssertEqual(parse("join first 99999999999999999999 x")?.joins.first?.window, .first(BQLJoin.maxWindow))
        // Placeholders are numbered across `where` and every `having`, in textual order.
        let numbered = parse("where a = ? join b having c = ? join d having e = ? and f = 3")
        XCTAssertEqual(numbered?.joins.map { $0.having?.constraints.map(\.rhs) },
                       [[.placeholder(1)], [.placeholder(2), .number("3")]])
    }

    func testJoinsOnly() throws {
        XCTAssertEqual(try BQLParser.parseJoins("join last 5 comments having score > ? fetch author").joins.count, 1)
        XCTAssertEqual(try BQLParser.parseJoins("").joins, [])
        XCTAssertThrowsError(try BQLParser.parseJoins("where a = ?")) { error in
            XCTAssertEqual((error as? BQLError)?.offset, 0)
            XCTAssertEqual((error as? BQLError)?.status, .invalidQuery)
        }
        XCTAssertThrowsError(try BQLParser.parseJoins("join a sort by b"))
    }

    func testSyntaxErrorsCarryOffsets() {
        // BB-081.
        let trailing = failure("where name = ? and")
        XCTAssertEqual(trailing?.kind, .syntax)
        XCTAssertEqual(trailing?.offset, 18)
        XCTAssertEqual(trailing?.message, "Expected a field or 'this', found the end of the query at offset 18")
        XCTAssertEqual(trailing?.status, .invalidQuery)
        let injection = failure("where name = 'x' OR 1=1 --")
        XCTAssertEqual(injection?.offset, 13)
        XCTAssertEqual(injection?.message, "Unexpected character ''' at offset 13")
        let cases: [(String, Int)] = [
            ("where", 5), ("where a", 7), ("where a = ", 10), ("where a == ?", 9), ("where a != ?", 8),
            ("where (a = ?", 12), ("where a = ?)", 11), ("sort name", 5), ("sort by", 7), ("join", 4),
            ("join first 2", 12), ("join first 2.5 x", 11), ("join x fetch", 12), ("join x fetch a,", 15),
            ("sort by a join b", 10), ("where a = ? where b = ?", 12), ("where this.x = ?", 10),
            ("where a.b.c = ?", 9), ("where a not = ?", 12), ("where a is ?.x", 6), ("where a in ?.x", 6),
            ("where this like ?", 6), ("where this is ?", 6), ("where this > ?", 6), ("where a = ? \u{00A0}", 12),
            ("where a = \"x\"", 10), ("where a = -1", 10), ("where a = ?;", 11), ("where a=? and (b=? or)", 21),
        ]
        for (text, offset) in cases {
            let error = failure(text)
            XCTAssertNotNil(error, text)
            XCTAssertEqual(error?.offset, offset, text)
            XCTAssertEqual(error?.status, .invalidQuery, text)
        }
        XCTAssertEqual(failure("where a = ? \u{00A0}")?.message, "Unexpected character U+00A0 at offset 12")
    }
}
