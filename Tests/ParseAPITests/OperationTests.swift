import XCTest
import Core
@testable import ParseAPI

final class OperationTests: XCTestCase {
    func op(_ text: String) throws -> FieldOperation { try FieldOperation.parse(try JSONParser.parse(text)) }

    func testIncrementStaysIntegerUntilOverflow() throws {
        XCTAssertEqual(try op(#"{"__op":"Increment","amount":2}"#).apply(to: 1, creating: false), 3)
        XCTAssertEqual(try op(#"{"__op":"Increment","amount":1}"#).apply(to: nil, creating: false), 1)
        let big = try op(#"{"__op":"Increment","amount":1}"#).apply(to: .number(JSONNumber(Int64.max)), creating: false)
        XCTAssertEqual(big?.doubleValue, Double(Int64.max) + 1)
        XCTAssertThrowsError(try op(#"{"__op":"Increment","amount":1}"#).apply(to: "x", creating: false))
    }

    func testArrayOperations() throws {
        XCTAssertEqual(try op(#"{"__op":"Add","objects":[2]}"#).apply(to: [1], creating: false), [1, 2])
        XCTAssertEqual(try op(#"{"__op":"AddUnique","objects":[1,2,2]}"#).apply(to: [1], creating: false), [1, 2])
        XCTAssertEqual(try op(#"{"__op":"Remove","objects":[1]}"#).apply(to: [1, 2, 1], creating: false), [2])
        XCTAssertEqual(try op(#"{"__op":"Remove","objects":[1]}"#).apply(to: nil, creating: false), [])
        XCTAssertEqual(try op(#"{"__op":"AddUnique","objects":[1.0]}"#).apply(to: [1], creating: false), [1])
    }

    func testPointerEqualityIgnoresExtraKeys() throws {
        let stored: JSON = [["__type": "Pointer", "className": "A", "objectId": "x"]]
        let result = try op(#"{"__op":"AddUnique","objects":[{"__type":"Pointer","className":"A","objectId":"x"}]}"#)
            .apply(to: stored, creating: false)
        XCTAssertEqual(result?.arrayValue?.count, 1)
    }

    func testSetOnInsertOnlyOnCreate() throws {
        let o = try op(#"{"__op":"SetOnInsert","amount":5}"#)
        XCTAssertEqual(try o.apply(to: nil, creating: true), 5)
        XCTAssertEqual(try o.apply(to: 1, creating: false), 1)
    }

    func testOperationErrors() {
        XCTAssertThrowsError(try op(#"{"__op":"Increment","amount":"1"}"#)) { XCTAssertEqual(($0 as? ParseError)?.code, 107) }
        XCTAssertThrowsError(try op(#"{"__op":"Frob"}"#)) {
            XCTAssertEqual($0 as? ParseError, ParseError(108, "The Frob operator is not supported yet."))
        }
        XCTAssertThrowsError(try op(#"{"__op":"Batch","ops":[{"__op":"Add","objects":[]}]}"#))
    }

    func testImpliedTypes() throws {
        XCTAssertEqual(try op(#"{"__op":"Increment","amount":1}"#).impliedType, .number)
        XCTAssertEqual(try op(#"{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"P","objectId":"a"}]}"#).impliedType,
                       .relation("P"))
        XCTAssertNil(try op(#"{"__op":"Delete"}"#).impliedType)
        XCTAssertEqual(try op(#"{"__type":"Date","iso":"2024-01-01T00:00:00Z"}"#),
                       .set(["__type": "Date", "iso": "2024-01-01T00:00:00.000Z"]))
    }

    func testNonFiniteNumbersRefused() {
        XCTAssertThrowsError(try op(#"{"__op":"Add","objects":[1e400]}"#)) { XCTAssertEqual(($0 as? ParseError)?.code, 111) }
        XCTAssertThrowsError(try FieldOperation.parse(try JSONParser.parse("1e400"))) { XCTAssertEqual(($0 as? ParseError)?.code, 111) }
    }

    func testNumbersNormalised() {
        XCTAssertEqual(Values.normalizeNumber(JSONNumber(text: "9.0") ?? JSONNumber(0)).text, "9")
        XCTAssertEqual(Values.normalizeNumber(JSONNumber(text: "0.1") ?? JSONNumber(0)).text, "0.1")
        XCTAssertEqual(Values.normalizeNumber(JSONNumber(text: "1e2") ?? JSONNumber(0)).text, "100")
    }
}

final class ACLTests: XCTestCase {
    func testNormalisationDropsFalse() throws {
        let acl = try ACL.normalize(["*": ["read": true, "write": false], "u1": ["write": false]])
        XCTAssertEqual(acl, ["*": ["read": true]])
    }

    func testInvalidACLs() {
        for bad: JSON in ["public", ["*": true], ["*": ["read": "yes"]], ["*": ["delete": true]], ["": ["read": true]],
                          ["role:bad/name": ["read": true]]] {
            XCTAssertThrowsError(try ACL.normalize(bad)) { XCTAssertEqual(($0 as? ParseError)?.code, 123) }
        }
    }

    func testPermissionsAndGroups() {
        var caller = Caller(level: .user, userId: "u1")
        caller.roles = ["Admin"]
        XCTAssertEqual(caller.aclGroup, ["*", "u1", "role:Admin"])
        XCTAssertTrue(ACLPermissions.allows(nil, "write", group: ["*"]))
        XCTAssertTrue(ACLPermissions.allows(["role:Admin": ["read": true]], "read", group: caller.aclGroup))
        XCTAssertFalse(ACLPermissions.allows(["role:Admin": ["read": true]], "write", group: caller.aclGroup))
        XCTAssertFalse(ACLPermissions.allows([:], "read", group: caller.aclGroup))
        let perms = ACLPermissions(["*": ["read": true], "u1": ["read": true, "write": true]])
        XCTAssertEqual(perms.read, ["*", "u1"])
        XCTAssertEqual(perms.write, ["u1"])
    }

    func testCLPChecks() throws {
        var schema = ClassSchema(className: "C")
        schema.clp = ["find": ["role:Admin": true], "get": ["requiresAuthentication": true], "update": [:],
                      "writeUserFields": ["owner"]]
        let pub = Caller.publicCaller
        XCTAssertThrowsError(try CLP.check("find", className: "C", schema: schema, caller: pub)) {
            XCTAssertEqual($0 as? ParseError, ParseError(119, "Permission denied for action find on class C."))
        }
        XCTAssertThrowsError(try CLP.check("get", className: "C", schema: schema, caller: pub)) {
            XCTAssertEqual(($0 as? ParseError)?.code, 101)
        }
        var admin = Caller(level: .user, userId: "u1")
        admin.roles = ["Admin"]
        XCTAssertEqual(try CLP.check("find", className: "C", schema: schema, caller: admin), .allowed)
        XCTAssertEqual(try CLP.check("update", className: "C", schema: schema, caller: admin), .pointerRestricted(["owner"]))
        XCTAssertEqual(try CLP.check("delete", className: "C", schema: schema, caller: pub), .allowed)
        XCTAssertEqual(try CLP.check("find", className: "C", schema: schema, caller: .master), .allowed)
    }

    func testProtectedFieldsIntersect() {
        var schema = ClassSchema(className: "C")
        schema.clp = ["protectedFields": ["*": ["a", "b"], "role:Admin": ["b"]]]
        var admin = Caller(level: .user, userId: "u1")
        admin.roles = ["Admin"]
        XCTAssertEqual(CLP.protectedFields(className: "C", schema: schema, caller: .publicCaller, serverWide: [:]), ["a", "b"])
        XCTAssertEqual(CLP.protectedFields(className: "C", schema: schema, caller: admin, serverWide: [:]), ["b"])
        XCTAssertEqual(CLP.protectedFields(className: "C", schema: schema, caller: .master, serverWide: [:]), [])
    }
}
