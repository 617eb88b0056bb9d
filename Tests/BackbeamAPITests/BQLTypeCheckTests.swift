import XCTest
@testable import BackbeamAPI

/// Operators per field kind and parameter conversion (§6.2).
final class BQLTypeCheckTests: XCTestCase {
    private func typed(_ text: String, _ params: [String], _ kind: BQLFieldKind) throws -> BQLTypedValue {
        let bound = try BQLBoundQuery.bind(try BQLParser.parse(text), params: params)
        guard let constraint = bound.query.condition?.constraints.first else { throw BQLError(.syntax, "none") }
        return try BQLTypeCheck.value(of: constraint, in: bound, kind: kind)
    }

    private func errorKind(_ text: String, _ params: [String], _ kind: BQLFieldKind) -> BQLError.Kind? {
        do {
            _ = try typed(text, params, kind)
            return nil
        } catch { return (error as? BQLError)?.kind }
    }

    func testValueTypes() throws {
        XCTAssertEqual(try typed("where name = ?", ["Bar Pepe"], .scalar(.text)), .text("Bar Pepe"))
        XCTAssertEqual(try typed("where price > ?", ["1.0E1"], .scalar(.number)), .number(10))
        XCTAssertEqual(try typed("where born <= ?", ["1368520407344.9"], .scalar(.date)), .date(1_368_520_407_344))
        XCTAssertEqual(try typed("where created_at > ?", ["1368520407344"], .timestamp), .date(1_368_520_407_344))
        XCTAssertEqual(try typed("where flag = ?", ["TRUE"], .scalar(.boolean)), .boolean(true))
        XCTAssertEqual(try typed("where d >= ?", ["٢٠١٤-٠٥-٠١"], .scalar(.day)), .day("2014-05-01"))
        XCTAssertEqual(try typed("where cat < ?", ["b"], .scalar(.select)), .text("b"))
        XCTAssertEqual(try typed("where score > 10", [], .scalar(.number)), .number(10), "literals bind like params")
        // BB-154: injection text is only ever a value.
        XCTAssertEqual(try typed("where name = ?", ["'; DROP TABLE place; --"], .scalar(.text)),
                       .text("'; DROP TABLE place; --"))
    }

    func testWrongParameterFormsAreInvalidParameters() {
        XCTAssertEqual(errorKind("where price > ?", ["abc"], .scalar(.number)), .parameterValue)
        XCTAssertEqual(errorKind("where born = ?", ["x"], .scalar(.date)), .parameterValue)
        XCTAssertEqual(errorKind("where flag = ?", ["maybe"], .scalar(.boolean)), .parameterValue)
        XCTAssertEqual(errorKind("where d = ?", ["2014-02-30"], .scalar(.day)), .parameterValue)
        XCTAssertEqual(errorKind("where city is ?", ["city/bad$id"], .toOne), .parameterValue)
        XCTAssertEqual(errorKind("where this in ?.favs", ["user/"], .this), .parameterValue)
    }

    func testOperatorsNotValidForTheTypeAreInvalidQuery() {
        // BB-080: `like` on a number; also ordering on booleans, anything on json/location, `is` on text.
        for (text, kind) in [("where price like ?", BQLFieldKind.scalar(.number)), ("where f > ?", .scalar(.boolean)),
                             ("where f = ?", .scalar(.json)), ("where f = ?", .scalar(.location)),
                             ("where f is ?", .scalar(.text)), ("where f has ?", .toOne), ("where f is ?", .toMany),
                             ("where f = ?", .toMany), ("where f > ?", .toOne), ("where f < ?", .scalar(.richText)),
                             ("where f like ?", .scalar(.select)), ("where created_at like ?", .timestamp),
                             ("where f in ?", .scalar(.text)), ("where f in ?", .toMany)] {
            XCTAssertEqual(errorKind(text, ["x"], kind), .type, "\(text) on \(kind)")
        }
        XCTAssertEqual(try? BQLParser.parse("where f like ?").condition.map { _ in 1 }, 1)
    }

    func testReferencesCollectionsAndRelations() throws {
        // BB-074: `city/<id>` and a bare id mean the same.
        XCTAssertEqual(try typed("where city is ?", ["city/uDiuuGIMMQ4O"], .toOne), .object("uDiuuGIMMQ4O"))
        XCTAssertEqual(try typed("where city is not ?", ["uDiuuGIMMQ4O"], .toOne), .object("uDiuuGIMMQ4O"))
        XCTAssertEqual(try typed("where city = ?", ["a/b/uDiuuGIMMQ4O"], .toOne), .object("uDiuuGIMMQ4O"))
        XCTAssertEqual(try typed("where languages has ?", ["language/es"], .toMany), .object("es"))
        XCTAssertEqual(try typed("where this = ?", ["place/p1"], .this), .object("p1"))
        XCTAssertEqual(try typed("where this in ?.favoriteCities", ["user/u1"], .this),
                       .relation(object: "u1", field: "favoriteCities"))
        // BB-077/BB-078: collection constraints with identities.
        let collection = try typed("where this in ?", ["tw:123\nemail:ANA@example.com\nfb:10\n\nuser/uDiuuGIMMQ4O\nxx:zz\ngp:\nid2"], .this)
        XCTAssertEqual(collection, .collection(BQLCollection(
            objectIDs: ["uDiuuGIMMQ4O", "id2"],
            identities: [.init(kind: .twitter, value: "123"), .init(kind: .email, value: "ANA@example.com"),
                         .init(kind: .facebook, value: "10")])))
        XCTAssertEqual(try typed("where author not in ?", ["a\nb"], .toOne), .collection(BQLCollection(objectIDs: ["a", "b"])))
        XCTAssertEqual(try typed("where this in ?", [""], .this), .collection(BQLCollection()))
        XCTAssertEqual(errorKind("where this in ?", ["ok\nnot an id"], .this), .parameterValue)
        XCTAssertEqual(errorKind("where f in ?.x", ["u"], .toOne), .syntax, "the parser refuses this before type checking")
    }

    func testUnknownFieldsMatchNothing() throws {
        XCTAssertEqual(try typed("where never = ?", ["x"], .unknown), .matchesNothing)
        XCTAssertEqual(try typed("where never like ?", ["x"], .unknown), .matchesNothing)
    }

    func testLikeWords() throws {
        // BB-079: words only; FTS syntax in the parameter cannot survive as syntax.
        XCTAssertEqual(try typed("where name like ?", ["pepe zaragoza"], .scalar(.text)), .words(["pepe", "zaragoza"]))
        XCTAssertEqual(try typed("where name like ?", ["\" OR * NEAR("], .scalar(.richText)), .words(["OR", "NEAR"]))
        XCTAssertEqual(try typed("where name like ?", ["  \t*"], .scalar(.textarea)), .words([]))
        XCTAssertEqual(BQLTypeCheck.words("café, Zaragoza-2014; naïve"), ["café", "Zaragoza", "2014", "naïve"])
        XCTAssertEqual(BQLTypeCheck.words("日本語 テキスト"), ["日本語", "テキスト"])
    }

    func testSort() throws {
        for kind in [BQLFieldKind.this, .timestamp, .unknown, .scalar(.text), .scalar(.textarea), .scalar(.select),
                     .scalar(.number), .scalar(.date), .scalar(.boolean), .scalar(.day)] {
            XCTAssertNoThrow(try BQLTypeCheck.checkSort(BQLSort(key: .field("f"), offset: 8), kind: kind), "\(kind)")
        }
        for kind in [BQLFieldKind.scalar(.richText), .scalar(.json), .scalar(.location), .toOne, .toMany] {
            XCTAssertThrowsError(try BQLTypeCheck.checkSort(BQLSort(key: .field("f"), offset: 8), kind: kind)) {
                XCTAssertEqual(($0 as? BQLError)?.status, .invalidQuery)
                XCTAssertEqual(($0 as? BQLError)?.offset, 8)
            }
        }
    }
}
