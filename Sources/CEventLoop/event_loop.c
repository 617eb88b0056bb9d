// accept4 is a GNU extension: its declaration in <sys/socket.h> needs _GNU_SOURCE, defined before any
// header so that this file calls the C library's own declaration.
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "event_loop.h"

int quartet_accept(int fd, void *address, socklen_t *length) {
    return accept4(fd, (struct sockaddr *)address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// MADV_PAGEOUT is Linux 5.4's; older headers lack the name, and older kernels answer EINVAL (ignored).
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

long quartet_release_executable_pages(void) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    FILE *maps = fopen("/proc/self/maps", "re");
    if (maps == NULL) return -1;
    long advised = 0;
    char line[4096 + 256];
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long start, end;
        char perms[5];
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &start, &end, perms, &path_at) != 3 || path_at == 0) continue;
        char *path = line + path_at;
        path[strcspn(path, "\n")] = 0;
        // Read-only mappings only: written pages of the data segment are the process's own memory.
        if (perms[1] == 'w' || strcmp(path, exe) != 0 || end <= start) continue;
        if (madvise((void *)start, end - start, MADV_PAGEOUT) == 0) advised += (long)(end - start);
    }
    fclose(maps);
    return advised;
}
