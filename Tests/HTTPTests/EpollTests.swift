import Glibc
import XCTest
@testable import HTTP

/// The event loop's system calls through the CEventLoop target: flags, and the `epoll_event` layout
/// (events and the fd each entry carries, entry after entry).
final class EpollTests: XCTestCase {
    private func signal(_ fd: Int32) {
        var one: UInt64 = 1
        XCTAssertEqual(write(fd, &one, 8), 8)
    }

    func testReadyEventsCarryTheirDescriptors() throws {
        let epfd = Epoll.create()
        let first = Epoll.eventFD(), second = Epoll.eventFD()
        defer { close(epfd); close(first); close(second) }
        XCTAssertGreaterThanOrEqual(epfd, 0)
        XCTAssertGreaterThanOrEqual(first, 0)
        XCTAssertGreaterThanOrEqual(second, 0)
        XCTAssertEqual(Epoll.add(epfd, first, events: Epoll.in), 0)
        XCTAssertEqual(Epoll.add(epfd, second, events: Epoll.in | Epoll.edgeTriggered), 0)
        let events = Epoll.allocateEvents(capacity: 4)
        defer { events.deallocate() }
        XCTAssertEqual(Epoll.wait(epfd, events, capacity: 4, timeout: 0), 0)

        signal(first)
        signal(second)
        XCTAssertEqual(Epoll.wait(epfd, events, capacity: 4, timeout: 1000), 2)
        let ready = [Epoll.event(events, 0), Epoll.event(events, 1)]
        XCTAssertEqual(Set(ready.map(\.fd)), [first, second])
        XCTAssertTrue(ready.allSatisfy { $0.events & Epoll.in != 0 && $0.events & Epoll.out == 0 })

        Epoll.remove(epfd, first)
        signal(second)
        XCTAssertEqual(Epoll.wait(epfd, events, capacity: 4, timeout: 1000), 1)
        XCTAssertEqual(Epoll.event(events, 0).fd, second)
    }

    func testDescriptorsAreNonBlockingAndCloseOnExec() {
        let epfd = Epoll.create(), eventFD = Epoll.eventFD()
        defer { close(epfd); close(eventFD) }
        XCTAssertNotEqual(fcntl(epfd, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertNotEqual(fcntl(eventFD, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertNotEqual(fcntl(eventFD, F_GETFL) & O_NONBLOCK, 0)
        var value: UInt64 = 0
        XCTAssertEqual(read(eventFD, &value, 8), -1, "an empty non-blocking eventfd does not block")
        XCTAssertEqual(errno, EAGAIN)
    }

    func testAcceptGivesANonBlockingCloseOnExecConnection() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener); close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, pointer, &length) == 0
                    && connect(client, pointer, length) == 0
            }
        }
        XCTAssertTrue(bound)

        var peer = sockaddr_storage()
        var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutableBytes(of: &peer) { raw in
            raw.baseAddress.map { Epoll.accept(listener, $0, &peerLength) } ?? -1
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(Int32(peer.ss_family), AF_INET)
        XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertNotEqual(fcntl(fd, F_GETFL) & O_NONBLOCK, 0)
    }
}
