import Foundation
import XCTest
import Core

/// DS-040 … DS-049: list_datastores.
final class DatastoreListTests: DatastoreTestCase {
    private func items(_ token: String = DatastoreServer.tokenA) throws -> [JSON] {
        try ds.call("list_datastores", token: token)["datastores"]?.arrayValue ?? []
    }

    func test_DS_040_new_user_empty_list() throws {
        let r = try ds.call("list_datastores", token: DatastoreServer.tokenD)
        XCTAssertEqual(r.text, "{\"datastores\":[],\"token\":\"4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945\"}")
    }

    func test_DS_041_info_in_item() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\":info\",\"info\",{\"title\":\"My title\",\"mtime\":{\"T\":\"1400000000123\"}}]]")
        let item = try items().first
        XCTAssertEqual(item?["dsid"]?.stringValue, "default")
        XCTAssertEqual(item?["handle"]?.stringValue, h)
        XCTAssertEqual(item?["rev"]?.int64Value, 1)
        XCTAssertEqual(item?["info"]?.serialized(sortedKeys: true), "{\"mtime\":{\"T\":\"1400000000123\"},\"title\":\"My title\"}")
        XCTAssertNil(item?["role"])
    }

    func test_DS_042_no_info_key_without_record() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{}]]")
        XCTAssertEqual(try items().first?.objectValue?.keys.sorted(), ["dsid", "handle", "rev"])
    }

    func test_DS_043_sorted_by_dsid() throws {
        _ = try ds.createShared(key: "xyz")
        for dsid in ["default", "b", "a"] { _ = try ds.create(dsid) }
        let expected = ["a", "b", "default", DatastoreServer.shareableDsid("xyz")]
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        XCTAssertEqual(try items().compactMap { $0["dsid"]?.stringValue }, expected)
    }

    func test_DS_044_owner_role_on_shareable() throws {
        _ = try ds.createShared(key: "k44")
        XCTAssertEqual(try items().first?["role"]?.int64Value, 3000)
    }

    func test_DS_045_granted_user_lists_shareable() throws {
        let h = try ds.createShared(key: "k45")
        try ds.put(h, rev: 0, DatastoreServer.grant("u2", 2000))
        let listed = try items(DatastoreServer.tokenB)
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed.first?["handle"]?.stringValue, h)
        XCTAssertEqual(listed.first?["role"]?.int64Value, 2000)
    }

    func test_DS_046_public_grant_does_not_list() throws {
        let h = try ds.createShared(key: "k46")
        try ds.put(h, rev: 0, DatastoreServer.grant("public", 2000))
        XCTAssertEqual(try items(DatastoreServer.tokenB).count, 0)
    }

    func test_DS_047_private_never_listed_for_others() throws {
        _ = try ds.create()
        _ = try ds.create("other")
        XCTAssertEqual(try items(DatastoreServer.tokenB).count, 0)
    }

    func test_DS_048_token_is_hash_of_canonical_list() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\":info\",\"info\",{\"title\":\"My title\",\"mtime\":{\"T\":\"1400000000123\"}}]]")
        _ = try ds.createShared(key: "k48")
        let r = try ds.call("list_datastores")
        guard let list = r["datastores"] else { return XCTFail(r.text) }
        let canonical = list.serialized(sortedKeys: true)
        XCTAssertEqual(r["token"]?.stringValue, Hex.encode(Crypto.sha256(Array(canonical.utf8))))
        // The vector of §8.5.
        let vector = "[{\"dsid\":\"default\",\"handle\":\"nuFbyLH_NawvJB2r\",\"info\":{\"mtime\":{\"T\":\"1400000000123\"},\"title\":\"My title\"},\"rev\":3}]"
        XCTAssertEqual(Hex.encode(Crypto.sha256(Array(vector.utf8))),
                       "d4456a3f96af2afae0e0cf8a17e071d23b3d760e2f93cb929e2d5ded985fe88f")
    }

    func test_DS_049_token_stable_until_a_put() throws {
        let h = try ds.create()
        let first = try ds.call("list_datastores")["token"]
        XCTAssertEqual(try ds.call("list_datastores")["token"], first)
        try ds.put(h, rev: 0, "[]")
        XCTAssertNotEqual(try ds.call("list_datastores")["token"], first)
    }
}
