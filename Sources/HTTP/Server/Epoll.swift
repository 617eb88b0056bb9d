import Glibc

// The Glibc module map does not include <sys/epoll.h> or <sys/eventfd.h>, and hides the GNU accept4;
// the few entry points the event loop needs are declared here against the C library directly.
// All take and return plain integers and pointers, so the C calling convention matches.

@_silgen_name("epoll_create1")
private func c_epoll_create1(_ flags: Int32) -> Int32
@_silgen_name("epoll_ctl")
private func c_epoll_ctl(_ epfd: Int32, _ op: Int32, _ fd: Int32, _ event: UnsafeMutableRawPointer?) -> Int32
@_silgen_name("epoll_wait")
private func c_epoll_wait(_ epfd: Int32, _ events: UnsafeMutableRawPointer, _ count: Int32, _ timeout: Int32) -> Int32
@_silgen_name("eventfd")
private func c_eventfd(_ initial: UInt32, _ flags: Int32) -> Int32
@_silgen_name("accept4")
private func c_accept4(_ fd: Int32, _ address: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<socklen_t>?,
                       _ flags: Int32) -> Int32

/// epoll(7) through the C library.
enum Epoll {
    static let `in`: UInt32 = 0x001
    static let out: UInt32 = 0x004
    static let err: UInt32 = 0x008
    static let hup: UInt32 = 0x010
    static let rdhup: UInt32 = 0x2000
    static let exclusive: UInt32 = 1 << 28
    static let edgeTriggered: UInt32 = 1 << 31
    static let add: Int32 = 1
    static let delete: Int32 = 2
    /// EPOLL_CLOEXEC and EFD_CLOEXEC equal O_CLOEXEC; EFD_NONBLOCK equals O_NONBLOCK.
    static let closeOnExec: Int32 = O_CLOEXEC
    static let nonBlocking: Int32 = O_NONBLOCK

    // struct epoll_event is packed on x86-64 (12 bytes, data at offset 4) and naturally aligned elsewhere.
    #if arch(x86_64)
    static let eventStride = 12
    static let dataOffset = 4
    #else
    static let eventStride = 16
    static let dataOffset = 8
    #endif

    static func create() -> Int32 { c_epoll_create1(closeOnExec) }

    static func eventFD() -> Int32 { c_eventfd(0, nonBlocking | closeOnExec) }

    /// Adds `fd` with `events`; the event's data carries the fd itself.
    @discardableResult
    static func add(_ epfd: Int32, _ fd: Int32, events: UInt32) -> Int32 {
        var raw = (UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &raw) { buffer -> Int32 in
            buffer.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            buffer.storeBytes(of: UInt64(UInt32(bitPattern: fd)), toByteOffset: dataOffset, as: UInt64.self)
            return c_epoll_ctl(epfd, add, fd, buffer.baseAddress)
        }
    }

    /// Removes `fd` from the set.
    static func remove(_ epfd: Int32, _ fd: Int32) {
        var raw = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &raw) { buffer in
            _ = c_epoll_ctl(epfd, delete, fd, buffer.baseAddress)
        }
    }

    /// Waits for events into `buffer` (room for `capacity` events).
    static func wait(_ epfd: Int32, _ buffer: UnsafeMutableRawPointer, capacity: Int32, timeout: Int32) -> Int32 {
        c_epoll_wait(epfd, buffer, capacity, timeout)
    }

    /// The events and fd of entry `index` of a wait buffer.
    static func event(_ buffer: UnsafeMutableRawPointer, _ index: Int) -> (events: UInt32, fd: Int32) {
        let base = buffer + index * eventStride
        let events = base.loadUnaligned(as: UInt32.self)
        let data = (base + dataOffset).loadUnaligned(as: UInt64.self)
        return (events, Int32(bitPattern: UInt32(truncatingIfNeeded: data)))
    }

    /// accept4(2) with non-blocking and close-on-exec set atomically.
    static func accept(_ fd: Int32, _ address: UnsafeMutableRawPointer, _ length: inout socklen_t) -> Int32 {
        c_accept4(fd, address, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    }
}
