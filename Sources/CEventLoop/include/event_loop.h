#ifndef QUARTET_EVENT_LOOP_H
#define QUARTET_EVENT_LOOP_H

// The system calls of the HTTP server's event loop, from the real C headers: epoll(7), eventfd(2) and
// accept4(2), and glibc's heap trimming (malloc.h). Quartet's server is built for Linux only; there is no
// kqueue port.
#if !defined(__linux__)
#error "Quartet builds on Linux only: the HTTP server's event loop uses epoll, eventfd and accept4."
#endif

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <malloc.h>

// Static inline, so each call compiles to the C library call itself with no wrapper in between (all but
// `quartet_accept`, see there).

/// epoll_create1(EPOLL_CLOEXEC).
static inline int quartet_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/// epoll_ctl(EPOLL_CTL_ADD) of `fd` for `events`; the event's data carries the fd itself.
static inline int quartet_epoll_add(int epfd, int fd, unsigned int events) {
    struct epoll_event event = { .events = events, .data = { .fd = fd } };
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

/// epoll_ctl(EPOLL_CTL_DEL) of `fd`.
static inline int quartet_epoll_remove(int epfd, int fd) {
    struct epoll_event event = { 0 };
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
}

/// epoll_wait into `events` (room for `capacity`).
static inline int quartet_epoll_wait(int epfd, struct epoll_event *events, int capacity, int timeout) {
    return epoll_wait(epfd, events, capacity, timeout);
}

/// The fd an event of `quartet_epoll_add` carries.
static inline int quartet_epoll_event_fd(const struct epoll_event *event) {
    return event->data.fd;
}

/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
static inline int quartet_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC, set atomically with the accept. `address` points to room
/// for any address (a `struct sockaddr_storage`), `length` to its size.
///
/// Defined in event_loop.c, not inline: glibc declares accept4 only under _GNU_SOURCE, which this header
/// cannot set without clashing with the C library module Swift imports. One call per accepted connection.
int quartet_accept(int fd, void *address, socklen_t *length);

/// glibc's mallopt(M_MMAP_THRESHOLD): blocks of `bytes` or more are mapped on their own (and unmapped
/// when freed); setting it also stops glibc from raising the threshold by itself.
static inline int quartet_heap_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

/// glibc's malloc_trim(0): returns the free pages of every arena to the kernel.
static inline int quartet_heap_trim(void) {
    return malloc_trim(0);
}

/// madvise(MADV_PAGEOUT) over every read-only mapping of the process's own executable (its code and
/// constants, found in /proc/self/maps by the path /proc/self/exe names): the kernel drops those pages from
/// the process, and the ones still needed fault back in from the page cache. Returns the bytes advised, 0
/// when none could be, -1 when the maps could not be read. Defined in event_loop.c.
long quartet_release_executable_pages(void);

#endif
