// A SQLite VFS shim that turns the many small writes of a WAL commit into one.
//
// SQLite writes each WAL frame as two calls, the 24-byte frame header and then the page, so a commit of
// N pages costs 2N pwrite(2) calls, each a trip through the kernel's write path for the same few folios.
// This shim appends consecutive writes to a buffer and hands the whole run to the file in one call.
//
// Why it is safe at synchronous=FULL/EXTRA (the only modes it is used in): SQLite syncs the WAL at every
// commit after writing its frames and only then updates the wal-index header that makes them visible to
// readers; the buffer is flushed before that sync. Anything else that may look at the file (a read, a
// truncate, a size query, a file control, a close) flushes first as well, so the file always holds every
// byte SQLite could expect to find there. Data lost with the process before a sync is data SQLite never
// reported as committed, exactly as with writes sitting unsynced in the OS page cache.
#include "wal_buffer.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// The VFS object: SQLite's struct first, so a `sqlite3_vfs *` is also a `BufferVFS *`.
typedef struct BufferVFS {
    sqlite3_vfs base;
    sqlite3_vfs *root;
    unsigned int capacity;
    char name[64];
} BufferVFS;

/// An open WAL file. The underlying file lives in the same allocation, right after this struct.
typedef struct BufferFile {
    sqlite3_file base;
    sqlite3_file *real;
    unsigned char *buffer;
    unsigned int capacity;
    unsigned int length;
    sqlite3_int64 start;   // file offset of buffer[0]
} BufferFile;

static unsigned long long sqliteWrites = 0;
static unsigned long long fileWrites = 0;

static void count(unsigned long long *counter) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

void quartet_wal_buffer_counters(unsigned long long *sqlite, unsigned long long *file) {
    *sqlite = __atomic_load_n(&sqliteWrites, __ATOMIC_RELAXED);
    *file = __atomic_load_n(&fileWrites, __ATOMIC_RELAXED);
}

// sizeof(BufferFile) rounded up so the underlying file that follows it is 8-byte aligned.
#define HEADER_SIZE ((sizeof(BufferFile) + 7) & ~(size_t)7)

// The most one call to the default VFS's xWrite may carry. Its unix implementation keeps only the low 17
// bits of a length (a write of 128 KiB or more comes out short and is reported as SQLITE_FULL), so the
// buffer goes to the file in pieces of 31 pages (126,976 bytes).
#define MAX_FILE_WRITE (31 * 4096)

static int flush(BufferFile *f) {
    unsigned int done = 0;
    while (done < f->length) {
        unsigned int piece = f->length - done < MAX_FILE_WRITE ? f->length - done : MAX_FILE_WRITE;
        count(&fileWrites);
        int rc = f->real->pMethods->xWrite(f->real, f->buffer + done, (int)piece, f->start + done);
        if (rc != SQLITE_OK) {
            // The failed piece and everything after it are dropped: SQLite treats the error as a failed
            // write of the frames and never publishes them.
            f->length = 0;
            return rc;
        }
        done += piece;
    }
    f->length = 0;
    return SQLITE_OK;
}

static int bufferClose(sqlite3_file *file) {
    BufferFile *f = (BufferFile *)file;
    int rc = flush(f);
    int closed = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    sqlite3_free(f->buffer);
    f->buffer = NULL;
    return rc != SQLITE_OK ? rc : closed;
}

// Declares `f` for `file` and writes the buffer out first, returning its error: every operation that may
// look at the file's content or size sees all of it.
#define FLUSHED(file)                           \
    BufferFile *f = (BufferFile *)(file);       \
    do {                                        \
        int flushed = flush(f);                 \
        if (flushed != SQLITE_OK) return flushed; \
    } while (0)

static int bufferRead(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
    FLUSHED(file);
    return f->real->pMethods->xRead(f->real, out, amount, offset);
}

static int bufferWrite(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    BufferFile *f = (BufferFile *)file;
    count(&sqliteWrites);
    if (amount <= 0) return f->real->pMethods->xWrite(f->real, data, amount, offset);
    unsigned int size = (unsigned int)amount;
    // Continues the buffered run: append.
    if (f->length > 0 && offset == f->start + f->length && size <= f->capacity - f->length) {
        memcpy(f->buffer + f->length, data, size);
        f->length += size;
        return SQLITE_OK;
    }
    // Anything else keeps the order of writes: what is buffered goes to the file first.
    int rc = flush(f);
    if (rc != SQLITE_OK) return rc;
    if (size > MAX_FILE_WRITE || size > f->capacity / 2) {
        // SQLite's own frame and header writes are at most a page plus 24 bytes; anything this large is
        // passed on as it came.
        count(&fileWrites);
        return f->real->pMethods->xWrite(f->real, data, amount, offset);
    }
    if (f->buffer == NULL) {
        f->buffer = sqlite3_malloc64(f->capacity);
        if (f->buffer == NULL) {
            count(&fileWrites);
            return f->real->pMethods->xWrite(f->real, data, amount, offset);
        }
    }
    memcpy(f->buffer, data, size);
    f->start = offset;
    f->length = size;
    return SQLITE_OK;
}

static int bufferTruncate(sqlite3_file *file, sqlite3_int64 size) {
    FLUSHED(file);
    return f->real->pMethods->xTruncate(f->real, size);
}

static int bufferSync(sqlite3_file *file, int flags) {
    FLUSHED(file);
    return f->real->pMethods->xSync(f->real, flags);
}

static int bufferFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    FLUSHED(file);
    return f->real->pMethods->xFileSize(f->real, size);
}

static int bufferLock(sqlite3_file *file, int level) {
    BufferFile *f = (BufferFile *)file;
    return f->real->pMethods->xLock(f->real, level);
}

static int bufferUnlock(sqlite3_file *file, int level) {
    BufferFile *f = (BufferFile *)file;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int bufferCheckReservedLock(sqlite3_file *file, int *out) {
    BufferFile *f = (BufferFile *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int bufferFileControl(sqlite3_file *file, int op, void *arg) {
    FLUSHED(file);
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int bufferSectorSize(sqlite3_file *file) {
    BufferFile *f = (BufferFile *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int bufferDeviceCharacteristics(sqlite3_file *file) {
    BufferFile *f = (BufferFile *)file;
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

// A WAL file has no shared memory and is never memory-mapped by SQLite (both belong to the database
// file), so only the version-1 methods are offered.
static const sqlite3_io_methods bufferMethods = {
    1,
    bufferClose,
    bufferRead,
    bufferWrite,
    bufferTruncate,
    bufferSync,
    bufferFileSize,
    bufferLock,
    bufferUnlock,
    bufferCheckReservedLock,
    bufferFileControl,
    bufferSectorSize,
    bufferDeviceCharacteristics,
};

static int vfsOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    BufferVFS *v = (BufferVFS *)vfs;
    if ((flags & SQLITE_OPEN_WAL) == 0) {
        // Not a WAL: the default VFS's file, in place and unwrapped (the allocation is large enough).
        return v->root->xOpen(v->root, name, file, flags, outFlags);
    }
    BufferFile *f = (BufferFile *)file;
    memset(f, 0, sizeof(BufferFile));
    f->real = (sqlite3_file *)((unsigned char *)file + HEADER_SIZE);
    f->capacity = v->capacity;
    int rc = v->root->xOpen(v->root, name, f->real, flags, outFlags);
    // SQLite calls xClose only when pMethods is set, so a failed open leaves it NULL.
    f->base.pMethods = (rc == SQLITE_OK && f->real->pMethods != NULL) ? &bufferMethods : NULL;
    return rc;
}

// The rest of the VFS is the default one's.
#define ROOT(vfs) (((BufferVFS *)(vfs))->root)
static int vfsDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    return ROOT(vfs)->xDelete(ROOT(vfs), name, syncDir);
}
static int vfsAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    return ROOT(vfs)->xAccess(ROOT(vfs), name, flags, out);
}
static int vfsFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return ROOT(vfs)->xFullPathname(ROOT(vfs), name, size, out);
}
static void *vfsDlOpen(sqlite3_vfs *vfs, const char *name) { return ROOT(vfs)->xDlOpen(ROOT(vfs), name); }
static void vfsDlError(sqlite3_vfs *vfs, int size, char *out) { ROOT(vfs)->xDlError(ROOT(vfs), size, out); }
static void (*vfsDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    return ROOT(vfs)->xDlSym(ROOT(vfs), handle, symbol);
}
static void vfsDlClose(sqlite3_vfs *vfs, void *handle) { ROOT(vfs)->xDlClose(ROOT(vfs), handle); }
static int vfsRandomness(sqlite3_vfs *vfs, int size, char *out) {
    return ROOT(vfs)->xRandomness(ROOT(vfs), size, out);
}
static int vfsSleep(sqlite3_vfs *vfs, int micros) { return ROOT(vfs)->xSleep(ROOT(vfs), micros); }
static int vfsCurrentTime(sqlite3_vfs *vfs, double *out) { return ROOT(vfs)->xCurrentTime(ROOT(vfs), out); }
static int vfsGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    return ROOT(vfs)->xGetLastError ? ROOT(vfs)->xGetLastError(ROOT(vfs), size, out) : 0;
}
static int vfsCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    return ROOT(vfs)->xCurrentTimeInt64(ROOT(vfs), out);
}

static pthread_mutex_t registration = PTHREAD_MUTEX_INITIALIZER;

int quartet_wal_buffer_register(const char *name, unsigned int capacity) {
    if (name == NULL || strlen(name) >= sizeof(((BufferVFS *)0)->name) || capacity < 64 * 1024) {
        return SQLITE_MISUSE;
    }
    int rc = sqlite3_initialize();
    if (rc != SQLITE_OK) return rc;
    pthread_mutex_lock(&registration);
    sqlite3_vfs *existing = sqlite3_vfs_find(name);
    if (existing != NULL) {
        // Ours with the same capacity: already done. Anything else by that name is not ours to reuse.
        rc = (existing->xOpen == vfsOpen && ((BufferVFS *)existing)->capacity == capacity) ? SQLITE_OK : SQLITE_MISUSE;
        pthread_mutex_unlock(&registration);
        return rc;
    }
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    // Registered VFSes live as long as the process; this allocation is never freed.
    BufferVFS *v = root ? calloc(1, sizeof(BufferVFS)) : NULL;
    if (v == NULL) {
        pthread_mutex_unlock(&registration);
        return root ? SQLITE_NOMEM : SQLITE_ERROR;
    }
    strcpy(v->name, name);
    v->root = root;
    v->capacity = capacity;
    v->base.iVersion = root->iVersion < 2 ? root->iVersion : 2;
    v->base.szOsFile = (int)HEADER_SIZE + root->szOsFile;
    v->base.mxPathname = root->mxPathname;
    v->base.zName = v->name;
    v->base.xOpen = vfsOpen;
    v->base.xDelete = vfsDelete;
    v->base.xAccess = vfsAccess;
    v->base.xFullPathname = vfsFullPathname;
    v->base.xDlOpen = vfsDlOpen;
    v->base.xDlError = vfsDlError;
    v->base.xDlSym = vfsDlSym;
    v->base.xDlClose = vfsDlClose;
    v->base.xRandomness = vfsRandomness;
    v->base.xSleep = vfsSleep;
    v->base.xCurrentTime = vfsCurrentTime;
    v->base.xGetLastError = vfsGetLastError;
    if (v->base.iVersion >= 2) v->base.xCurrentTimeInt64 = vfsCurrentTimeInt64;
    rc = sqlite3_vfs_register(&v->base, 0);
    if (rc != SQLITE_OK) free(v);
    pthread_mutex_unlock(&registration);
    return rc;
}
