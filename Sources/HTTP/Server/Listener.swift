import Glibc

/// A listening socket.
struct Listener: Sendable {
    let fd: Int32
    let port: Int
    let isTLS: Bool

    /// Binds `host:port` (IPv4 or IPv6 literal, or "localhost") with SO_REUSEADDR so a restart does not wait
    /// for TIME_WAIT sockets, and listens non-blocking.
    static func open(host: String, port: Int, isTLS: Bool) throws(ServerStartError) -> Listener {
        guard (0...65_535).contains(port) else { throw .invalidAddress("\(host):\(port)") }
        let name = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
        } else if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
        } else {
            throw .invalidAddress(host)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", Sys.errorText()) }
        Sys.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        let bound: Int32
        if family == AF_INET {
            bound = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } else {
            bound = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard bound == 0 else {
            let text = Sys.errorText()
            close(fd)
            throw .system("bind \(host):\(port)", text)
        }
        // A deep backlog absorbs connection bursts (thousands of long-poll clients reconnecting at once).
        guard listen(fd, 4096) == 0 else {
            let text = Sys.errorText()
            close(fd)
            throw .system("listen", text)
        }
        return Listener(fd: fd, port: boundPort(fd) ?? port, isTLS: isTLS)
    }

    private static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return nil }
        if Int32(storage.ss_family) == AF_INET {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
        }
    }
}

/// Why the server could not start.
public enum ServerStartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not an IP literal or "localhost", or the port is out of range.
    case invalidAddress(String)
    /// A system call failed.
    case system(String, String)
    /// The TLS certificate or key could not be loaded.
    case tls(String)
    /// `start()` was called twice.
    case alreadyStarted

    /// A readable explanation.
    public var description: String {
        switch self {
        case .invalidAddress(let address): return "invalid listen address \(address)"
        case .system(let call, let text): return "\(call) failed: \(text)"
        case .tls(let text): return "TLS set-up failed: \(text)"
        case .alreadyStarted: return "server already started"
        }
    }
}
