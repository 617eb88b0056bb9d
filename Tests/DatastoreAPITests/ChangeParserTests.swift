import XCTest
import Core
@testable import DatastoreAPI

/// Syntax of changes and field operations (§5.6, §5.7) and delta size (§5.8).
final class ChangeParserTests: XCTestCase {
    private func parse(_ text: String) throws -> ParsedDelta {
        try ChangeParser.parse(try JSONParser.parse(text))
    }

    private func message(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch let error as ChangeParser.Invalid { return error.message } catch {
            return "\(error)"
        }
    }

    func testWorkedExampleDeltaSize() throws {
        let delta = try parse("[[\"I\",\"tasks\",\"r1\",{\"name\":\"café\",\"n\":{\"I\":\"5\"},\"items\":[\"a\",2]}]]")
        XCTAssertEqual(delta.size, 546)
        let update = try parse("[[\"U\",\"tasks\",\"r1\",{\"items\":[\"LI\",0,\"zz\"]}]]")
        XCTAssertEqual(update.size, 100 + 202)
        XCTAssertEqual(try parse("[[\"D\",\"t\",\"r\"]]").size, 200)
        XCTAssertEqual(try parse("[]").size, 100)
    }

    func testArityIsExact() {
        XCTAssertTrue(message("[[\"I\",\"t\",\"r1\",{}],[\"D\",\"t\",\"r1\",\"extra\"]]")?.hasPrefix("change 1: ") ?? false)
        XCTAssertNotNil(message("[[\"I\",\"t\",\"r1\"]]"))
        XCTAssertNotNil(message("[[\"U\",\"t\",\"r1\",[]]]"))
        XCTAssertTrue(message("[[\"X\",\"t\",\"r1\",{}]]")?.hasPrefix("change 0: ") ?? false)
        XCTAssertNotNil(message("{\"a\":1}"))
    }

    func testInvalidTableIDIsNamed() {
        XCTAssertEqual(message("[[\"I\",\"t\",\"r\",{}],[\"I\",\"t\",\"r2\",{}],[\"D\",\":\",\"r\"]]"),
                       "change 2: invalid table ID ':'")
    }

    func testFieldOps() throws {
        for bad in ["[\"Q\"]", "[\"P\"]", "[\"P\",1,2]", "[\"LP\",0]", "[\"LI\",\"0\",\"a\"]", "[\"LD\",1.0]",
                    "[\"LM\",0]", "[\"LI\",-1,\"a\"]", "[\"LI\",0,[\"a\"]]", "[\"LD\",1e0]", "[\"D\",1]"] {
            XCTAssertNotNil(message("[[\"U\",\"t\",\"r\",{\"f\":\(bad)}]]"), bad)
        }
        let ok = try parse("[[\"U\",\"t\",\"r\",{\"a\":[\"P\",[1,\"x\"]],\"b\":[\"D\"],\"c\":[\"LC\"],\"d\":[\"LP\",0,\"x\"],"
                           + "\"e\":[\"LI\",3,true],\"f\":[\"LD\",2],\"g\":[\"LM\",0,1]}]]")
        guard case .update(_, let ops)? = ok.changes.first else { return XCTFail("not an update") }
        XCTAssertEqual(ops.map(\.field), ["a", "b", "c", "d", "e", "f", "g"])
        XCTAssertEqual(ops[6].op, .listMove(0, 1))
    }

    func testFieldNames() {
        XCTAssertNotNil(message("[[\"I\",\"t\",\"r\",{\"a\\u0000\":1}]]"))
        XCTAssertNotNil(message("[[\"I\",\"t\",\"r\",{\"é\":1}]]"))
    }
}
