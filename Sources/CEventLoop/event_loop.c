// accept4 is a GNU extension: its declaration in <sys/socket.h> needs _GNU_SOURCE, defined before any
// header so that this file calls the C library's own declaration.
#define _GNU_SOURCE
#include <sys/socket.h>

#include "event_loop.h"

int quartet_accept(int fd, void *address, socklen_t *length) {
    return accept4(fd, (struct sockaddr *)address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
