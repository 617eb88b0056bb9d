/// The address of the client behind a request: the TCP peer, unless the peer is a trusted proxy, in which
/// case it is the right-most `X-Forwarded-For` hop that is not itself a trusted proxy.
///
/// Right-most, because each proxy appends the address it received the request from: the entries left of
/// the last trusted hop were written by the client and prove nothing. `X-Forwarded-For` from a peer that
/// is not trusted is ignored, so spoofing it cannot unlock an address-based allowance.
public struct ClientAddressResolver: Sendable {
    /// The proxies whose `X-Forwarded-For` is believed.
    public let trustedProxies: [IPRange]

    /// A resolver believing `X-Forwarded-For` from `trustedProxies` (none by default: the peer is the client).
    public init(trustedProxies: [IPRange] = []) {
        self.trustedProxies = trustedProxies
    }

    /// The client address of `request`.
    public func clientAddress(of request: HTTPRequest) -> String {
        // The usual deployment trusts no proxy: one branch, no header lookup.
        if trustedProxies.isEmpty { return request.remoteAddress }
        return clientAddress(peer: request.remoteAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
    }

    /// The client address for a TCP peer and the `X-Forwarded-For` field lines of its request, in order.
    /// Several lines are one comma-separated list (RFC 9110 5.3), so a hop a proxy added on a line of its
    /// own is as right-most as one it appended to the client's line.
    public func clientAddress(peer: String, forwardedFor lines: [String]) -> String {
        guard !lines.isEmpty, IPRange.any(trustedProxies, contains: peer) else { return peer }
        for line in lines.reversed() {
            for hop in line.split(separator: ",").reversed() {
                let address = hop.trimmingOWS()
                if address.isEmpty { continue }
                if !IPRange.any(trustedProxies, contains: address) { return address }
            }
        }
        return peer
    }
}
