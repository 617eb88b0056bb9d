import Glibc

/// Small wrappers over the C library used by the server internals.
enum Sys {
    /// Monotonic time in nanoseconds.
    static func monotonicNanos() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// A duration in nanoseconds, clamped at zero and at about 292 years.
    static func nanos(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 { return 0 }
        if seconds > 9_000_000_000 { return UInt64(Int64.max) }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    /// Puts `fd` in non-blocking mode.
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Sets an integer socket option.
    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Raises the soft open-file limit to the hard limit, so ten thousand parked connections fit.
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The text of the current errno.
    static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// The IP address text of a socket address.
    static func addressText(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family)
        let ok: Bool = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout<sockaddr_storage>.size) { raw in
                if family == AF_INET {
                    return raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                        var address = sin.pointee.sin_addr
                        return inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)) != nil
                    }
                }
                if family == AF_INET6 {
                    return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                        var address = sin6.pointee.sin6_addr
                        return inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil
                    }
                }
                return false
            }
        }
        guard ok else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
