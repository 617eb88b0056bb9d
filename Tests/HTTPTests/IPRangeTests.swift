import XCTest
@testable import HTTP

final class IPRangeTests: XCTestCase {
    func testIPRanges() {
        XCTAssertTrue(IPRange.any([IPRange.parse("127.0.0.1")].compactMap { $0 }, contains: "127.0.0.1"))
        XCTAssertTrue(IPRange.any([IPRange.parse("172.16.0.0/12")].compactMap { $0 }, contains: "172.17.0.1"))
        XCTAssertFalse(IPRange.any([IPRange.parse("172.16.0.0/12")].compactMap { $0 }, contains: "172.32.0.1"))
        XCTAssertTrue(IPRange.any([IPRange.parse("10.0.0.0/8")].compactMap { $0 }, contains: "::ffff:10.1.2.3"))
        XCTAssertFalse(IPRange.any([IPRange.parse("0.0.0.0/0")].compactMap { $0 }, contains: "::1"))
        XCTAssertTrue(IPRange.any([IPRange.parse("::/0")].compactMap { $0 }, contains: "::1"))
        XCTAssertNil(IPRange.parse("10.0.0.0/33"))
        XCTAssertNil(IPRange.parse("nope"))
    }

    func testIPv6PrefixesZonesAndMalformedText() {
        let ula = [IPRange.parse("fd00::/8")].compactMap { $0 }
        XCTAssertTrue(IPRange.any(ula, contains: "fd12:3456::1"))
        XCTAssertFalse(IPRange.any(ula, contains: "fe80::1"))
        XCTAssertTrue(IPRange.any([IPRange.parse("fe80::/10")].compactMap { $0 }, contains: "fe80::1%eth0"),
                      "a zone id is ignored")
        XCTAssertEqual(IPRange.parse("::ffff:10.0.0.0/8")?.bytes.count, 4, "a mapped network is an IPv4 range")
        XCTAssertNil(IPRange.parse("::/129"))
        XCTAssertNil(IPRange.parse("10.0.0.1/8/8"))
        XCTAssertNil(IPRange.parse("10.0.0.1/-1"))
        XCTAssertNil(IPRange.parse(""))
        XCTAssertFalse(IPRange.any([IPRange.parse("0.0.0.0/0")].compactMap { $0 }, contains: "not an address"))
        XCTAssertFalse(IPRange.any([], contains: "127.0.0.1"), "an empty list allows nobody")
        XCTAssertTrue(IPRange.any([IPRange.parse("10.1.2.3/32")].compactMap { $0 }, contains: "10.1.2.3"))
        XCTAssertFalse(IPRange.any([IPRange.parse("10.1.2.3/32")].compactMap { $0 }, contains: "10.1.2.4"))
        XCTAssertTrue(IPRange.any([IPRange.parse("10.1.2.0/23")].compactMap { $0 }, contains: "10.1.3.255"))
        XCTAssertFalse(IPRange.any([IPRange.parse("10.1.2.0/23")].compactMap { $0 }, contains: "10.1.4.0"))
    }
}

final class ClientAddressResolverTests: XCTestCase {
    private let proxies = ClientAddressResolver(trustedProxies: ["10.0.0.0/8", "::1"].compactMap(IPRange.parse))

    private func request(from peer: String, _ forwarded: [String]) throws -> HTTPRequest {
        try HTTPRequest(method: .get, target: "/", headers: HTTPHeaders(forwarded.map { ("X-Forwarded-For", $0) }),
                        remoteAddress: peer)
    }

    func testWithoutTrustedProxiesThePeerIsTheClient() throws {
        let resolver = ClientAddressResolver()
        XCTAssertEqual(resolver.clientAddress(of: try request(from: "10.1.1.1", ["203.0.113.9"])), "10.1.1.1")
    }

    func testTheRightMostUntrustedHopIsTheClient() throws {
        XCTAssertEqual(proxies.clientAddress(of: try request(from: "10.1.1.1", ["198.51.100.7, 203.0.113.9"])),
                       "203.0.113.9")
        XCTAssertEqual(proxies.clientAddress(of: try request(from: "10.1.1.1", ["1.1.1.1, 203.0.113.9 , 10.2.2.2"])),
                       "203.0.113.9", "trusted hops on the right are skipped")
        XCTAssertEqual(proxies.clientAddress(of: try request(from: "::1", ["203.0.113.9"])), "203.0.113.9")
    }

    func testForwardedForFromAnUntrustedPeerIsIgnored() throws {
        XCTAssertEqual(proxies.clientAddress(of: try request(from: "192.0.2.1", ["127.0.0.1"])), "192.0.2.1")
    }

    func testOnlyTrustedHopsLeaveThePeer() throws {
        XCTAssertEqual(proxies.clientAddress(of: try request(from: "10.1.1.1", ["10.3.3.3, 10.4.4.4"])), "10.1.1.1")
        XCTAssertEqual(proxies.clientAddress(of: try request(from: "10.1.1.1", [])), "10.1.1.1")
        XCTAssertEqual(proxies.clientAddress(of: try request(from: "10.1.1.1", [" , "])), "10.1.1.1")
    }

    func testRepeatedFieldLinesAreOneList() throws {
        // The client's own line comes first; the proxy added the real address on a line of its own.
        let forwarded = try request(from: "10.1.1.1", ["127.0.0.1", "203.0.113.9"])
        XCTAssertEqual(proxies.clientAddress(of: forwarded), "203.0.113.9")
    }
}
