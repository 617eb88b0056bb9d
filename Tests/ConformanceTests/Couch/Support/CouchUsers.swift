import Foundation
import XCTest
import Core

extension CouchTestCase {
    /// Creates `_users` account `name` as the server admin; returns its revision.
    @discardableResult
    func createUser(_ name: String, password: String, roles: [String] = [],
                    file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let roleList = roles.map { "\"\($0)\"" }.joined(separator: ",")
        let body = #"{"name":"\#(name)","password":"\#(password)","roles":[\#(roleList)],"type":"user"}"#
        let r = try send("PUT", "/_users/org.couchdb.user:\(name)", body: body)
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        return json(r)["rev"]?.stringValue ?? ""
    }

    /// Sets `/db/_security` as the server admin.
    func setSecurity(_ body: String, db: String = "db", file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try send("PUT", "/\(db)/_security", body: body)
        XCTAssertEqual(r.status, 200, r.text, file: file, line: line)
        XCTAssertEqual(compact(r), #"{"ok":true}"#, file: file, line: line)
    }

    /// `_security` with `members` and `admins` given by names.
    static func security(members: [String] = [], memberRoles: [String] = [], admins: [String] = []) -> String {
        func list(_ items: [String]) -> String { "[" + items.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        return #"{"admins":{"names":\#(list(admins)),"roles":[]},"members":{"names":\#(list(members)),"roles":\#(list(memberRoles))}}"#
    }
}
