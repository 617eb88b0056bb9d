import CEventLoop
import Glibc

/// epoll(7), eventfd(2) and accept4(2) for the event loop, through the CEventLoop target's static inline
/// wrappers over the real `<sys/epoll.h>`, `<sys/eventfd.h>` and `<sys/socket.h>`: the compiler sees the
/// C library's own declarations and `struct epoll_event` layout, and each call is the system call itself.
enum Epoll {
    static let `in` = EPOLLIN.rawValue
    static let out = EPOLLOUT.rawValue
    static let err = EPOLLERR.rawValue
    static let hup = EPOLLHUP.rawValue
    static let rdhup = EPOLLRDHUP.rawValue
    static let exclusive = EPOLLEXCLUSIVE.rawValue
    static let edgeTriggered = EPOLLET.rawValue

    /// An epoll set, closed on exec.
    static func create() -> Int32 { quartet_epoll_create() }

    /// A non-blocking eventfd starting at zero, closed on exec.
    static func eventFD() -> Int32 { quartet_eventfd() }

    /// Adds `fd` with `events`; the event's data carries the fd itself.
    @discardableResult
    static func add(_ epfd: Int32, _ fd: Int32, events: UInt32) -> Int32 {
        quartet_epoll_add(epfd, fd, events)
    }

    /// Removes `fd` from the set.
    static func remove(_ epfd: Int32, _ fd: Int32) {
        _ = quartet_epoll_remove(epfd, fd)
    }

    /// Room for `capacity` events of a wait.
    static func allocateEvents(capacity: Int) -> UnsafeMutablePointer<epoll_event> {
        UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    }

    /// Waits for events into `buffer` (room for `capacity` events).
    static func wait(_ epfd: Int32, _ buffer: UnsafeMutablePointer<epoll_event>, capacity: Int32,
                     timeout: Int32) -> Int32 {
        quartet_epoll_wait(epfd, buffer, capacity, timeout)
    }

    /// The events and fd of entry `index` of a wait buffer.
    static func event(_ buffer: UnsafeMutablePointer<epoll_event>, _ index: Int) -> (events: UInt32, fd: Int32) {
        let entry = buffer + index
        return (entry.pointee.events, quartet_epoll_event_fd(entry))
    }

    /// accept4(2) with non-blocking and close-on-exec set atomically.
    static func accept(_ fd: Int32, _ address: UnsafeMutableRawPointer, _ length: inout socklen_t) -> Int32 {
        quartet_accept(fd, address, &length)
    }
}
