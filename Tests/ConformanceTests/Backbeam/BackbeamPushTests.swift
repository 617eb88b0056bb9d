import Foundation
import XCTest
import Core

/// Push subscriptions, send into the outbox, and Android's token change headers (§5.5; BB-143 to BB-150).
final class BackbeamPushTests: BackbeamTestCase {
    /// An APNs token as iOS sends it: standard Base64 of 32 raw bytes.
    let apnToken = Base64.encode((0..<32).map { UInt8($0 * 7 % 256) })

    func channels(_ gateway: String, _ token: String, client: BackbeamClient? = nil) throws -> [String]? {
        let r = try (client ?? api).send("GET", "/push/subscribed-channels", p(("gateway", gateway), ("token", token)))
        XCTAssertEqual(r.status, 200, r.text)
        return r["channels"]?.arrayValue?.compactMap(\.stringValue)
    }

    func test_BB_143_subscribeAndList() throws {
        let r = try api.send("POST", "/push/subscribe", [("gateway", ["apn"]), ("token", [apnToken]), ("channels", ["b", "a"])])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json, .object(JSONObject([("status", .string("Success"))])))
        XCTAssertEqual(try channels("apn", apnToken), ["a", "b"])
        XCTAssertEqual(try api.send("POST", "/push/subscribe", [("gateway", ["apn"]), ("token", [apnToken]), ("channels", ["a"])]).status, 200)
        XCTAssertEqual(try channels("apn", apnToken), ["a", "b"])
        XCTAssertEqual(try channels("gcm", apnToken), [])
    }

    func test_BB_144_channelListEncodings() throws {
        var android = api!
        android.style = .android
        var browser = api!
        browser.style = .browser
        XCTAssertEqual(try android.send("POST", "/push/subscribe", [("gateway", ["gcm"]), ("token", ["t1"]),
                                                                    ("channels", ["a", "b"])]).status, 200)
        XCTAssertEqual(try channels("gcm", "t1"), ["a", "b"])
        XCTAssertEqual(try browser.send("POST", "/push/subscribe", [("gateway", ["gcm"]), ("token", ["t2"]),
                                                                    ("channels", ["a", "b"])]).status, 200)
        XCTAssertEqual(try channels("gcm", "t2"), ["a", "b"])
        // Android with one element still indexes it: channels[0]=a.
        let one = try android.raw("POST", "/push/subscribe", body: BackbeamClient.encode(
            android.signed("POST", "/push/subscribe", [("gateway", ["gcm"]), ("token", ["t3"]), ("channels", ["a"])])
                .map { $0.0 == "channels" ? ("channels[0]", $0.1) : $0 }, style: .browser))
        XCTAssertEqual(one.status, 200, one.text)
        XCTAssertEqual(try channels("gcm", "t3"), ["a"])
        XCTAssertEqual(try api.send("POST", "/push/subscribe", p(("gateway", "gcm"), ("token", "t4"), ("channels", "a"))).status, 200)
        XCTAssertEqual(try channels("gcm", "t4"), ["a"])
    }

    func test_BB_145_unsubscribe() throws {
        XCTAssertEqual(try api.send("POST", "/push/subscribe", [("gateway", ["apn"]), ("token", [apnToken]),
                                                                ("channels", ["a", "b"])]).status, 200)
        XCTAssertEqual(try api.send("POST", "/push/unsubscribe", p(("gateway", "apn"), ("token", apnToken), ("channels", "b"))).status, 200)
        XCTAssertEqual(try channels("apn", apnToken), ["a"])
        XCTAssertEqual(try api.send("POST", "/push/unsubscribe-all", p(("gateway", "apn"), ("token", apnToken))).status, 200)
        XCTAssertEqual(try channels("apn", apnToken), [])
        let again = try api.send("POST", "/push/unsubscribe", p(("gateway", "apn"), ("token", apnToken), ("channels", "b")))
        XCTAssertEqual(again.apiStatus, "Success", again.text)
        XCTAssertEqual(try api.send("POST", "/push/unsubscribe-all", p(("gateway", "apn"), ("token", apnToken))).apiStatus, "Success")
    }

    func test_BB_146_invalidSubscriptions() throws {
        assertError(try api.send("POST", "/push/subscribe", p(("gateway", "wns"), ("token", "t"), ("channels", "a"))), 400,
                    "InvalidParameters")
        assertError(try api.send("POST", "/push/subscribe", p(("gateway", "gcm"), ("channels", "a"))), 400, "InvalidParameters")
        assertError(try api.send("POST", "/push/subscribe", p(("gateway", "gcm"), ("token", "t"))), 400, "InvalidParameters")
        assertError(try api.send("POST", "/push/subscribe", p(("token", "t"), ("channels", "a"))), 400, "InvalidParameters")
        assertError(try api.send("GET", "/push/subscribed-channels", p(("gateway", "gcm"))), 400, "InvalidParameters")
        XCTAssertEqual(try channels("gcm", "t"), [])
    }

    func pushOutbox(channel: String) throws -> [JSON] {
        let r = try bb.admin("GET", "/projects/\(projectName)/dev/outbox/push?channel=\(channel)")
        XCTAssertEqual(r.status, 200, r.text)
        return r.json.arrayValue ?? []
    }

    func test_BB_147_sendWritesTheOutbox() throws {
        XCTAssertEqual(try api.send("POST", "/push/subscribe", p(("gateway", "apn"), ("token", apnToken), ("channels", "a"))).status, 200)
        XCTAssertEqual(try api.send("POST", "/push/subscribe", p(("gateway", "gcm"), ("token", "reg1"), ("channels", "a"))).status, 200)
        let r = try api.send("POST", "/push/send", p(("channel", "a"), ("apn_alert", "Hi"), ("apn_badge", "3"),
                                                     ("apn_payload_k", "v"), ("gcm_data_x", "y")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        let rows = try pushOutbox(channel: "a")
        XCTAssertEqual(rows.count, 2)
        let apn = try XCTUnwrap(rows.first { $0["gateway"]?.stringValue == "apn" })
        XCTAssertEqual(apn["payload"], try JSONParser.parse("{\"aps\":{\"alert\":\"Hi\",\"badge\":3},\"k\":\"v\"}"))
        XCTAssertEqual(apn["tokens"], .array([.string(apnToken)]))
        let gcm = try XCTUnwrap(rows.first { $0["gateway"]?.stringValue == "gcm" })
        XCTAssertEqual(gcm["payload"], try JSONParser.parse("{\"registration_ids\":[\"reg1\"],\"data\":{\"x\":\"y\"},\"collapse_key\":\"Hi\"}"))
        // The default sender logs each notification after the commit.
        var states = rows.compactMap { $0["state"]?.stringValue }
        for _ in 0..<50 where states != ["logged", "logged"] {
            usleep(20_000)
            states = try pushOutbox(channel: "a").compactMap { $0["state"]?.stringValue }
        }
        XCTAssertEqual(states, ["logged", "logged"])
    }

    func test_BB_148_sendWithoutSubscribersAndInvalidOptions() throws {
        XCTAssertEqual(try api.send("POST", "/push/send", p(("channel", "empty"), ("apn_alert", "Hi"))).apiStatus, "Success")
        XCTAssertEqual(try pushOutbox(channel: "empty").count, 0)
        assertError(try api.send("POST", "/push/send", p(("apn_alert", "Hi"))), 400, "InvalidParameters")
        XCTAssertEqual(try api.send("POST", "/push/subscribe", p(("gateway", "gcm"), ("token", "reg1"), ("channels", "a"))).status, 200)
        assertError(try api.send("POST", "/push/send", p(("channel", "a"), ("apn_badge", "abc"))), 400, "InvalidParameters")
        assertError(try api.send("POST", "/push/send", p(("channel", "a"), ("gcm_time_to_live", "soon"))), 400, "InvalidParameters")
        XCTAssertEqual(try pushOutbox(channel: "a").count, 0)
    }

    func test_BB_149_androidTokenChangeHeaders() throws {
        XCTAssertEqual(try api.send("POST", "/push/subscribe", [("gateway", ["gcm"]), ("token", ["old1"]),
                                                                ("channels", ["a", "b"])]).status, 200)
        XCTAssertEqual(try api.send("POST", "/push/subscribe", p(("gateway", "gcm"), ("token", "new1"), ("channels", "b"))).status, 200)
        let plain = try api.send("GET", "/data/place")
        let r = try api.send("GET", "/data/place", extraHeaders: [("x-backbeam-old-tokens", "[\"old1\"]"),
                                                                  ("x-backbeam-current-token", "gcm=new1")])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.json, plain.json)
        XCTAssertEqual(try channels("gcm", "new1"), ["a", "b"])
        XCTAssertEqual(try channels("gcm", "old1"), [])
    }

    func test_BB_150_malformedTokenHeadersAreIgnored() throws {
        XCTAssertEqual(try api.send("POST", "/push/subscribe", p(("gateway", "gcm"), ("token", "old1"), ("channels", "a"))).status, 200)
        let r = try api.send("GET", "/data/place", extraHeaders: [("x-backbeam-old-tokens", "[oops"),
                                                                  ("x-backbeam-current-token", "gcm=new1")])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        XCTAssertEqual(try channels("gcm", "old1"), ["a"])
        XCTAssertEqual(try channels("gcm", "new1"), [])
        // A request that fails the signature applies nothing.
        let unsigned = try api.send("GET", "/data/place", extraHeaders: [("x-backbeam-old-tokens", "[\"old1\"]"),
                                                                         ("x-backbeam-current-token", "gcm=new1")],
                                    mutate: { params in
                                        if let i = params.firstIndex(where: { $0.0 == "signature" }) { params[i].1 = ["AAAA"] }
                                    })
        assertError(unsigned, 400, "InvalidSignature")
        XCTAssertEqual(try channels("gcm", "old1"), ["a"])
    }
}
