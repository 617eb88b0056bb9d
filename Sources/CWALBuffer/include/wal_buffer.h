#ifndef QUARTET_WAL_BUFFER_H
#define QUARTET_WAL_BUFFER_H

#include <sqlite3.h>

/// Registers, once per name, a SQLite VFS called `name` that wraps the default VFS and gathers the writes
/// SQLite makes to a WAL file into one buffer of `capacity` bytes, written to the file in one call before
/// anything can depend on it being there (a sync, a read, a truncate, a size query, a file control, a
/// close) or when the next write does not continue the buffered run. Every other file is the default VFS's
/// own, unwrapped.
///
/// Only for connections at `PRAGMA synchronous=FULL` or `EXTRA`: SQLite then syncs the WAL at every commit
/// before it publishes the commit to readers, so no reader can look for a frame still in the buffer. At
/// NORMAL or OFF it publishes commits without a sync, and this VFS must not be used.
///
/// Returns SQLITE_OK, SQLITE_MISUSE for a capacity below 64 KiB or a name in use by another VFS, or
/// SQLITE_NOMEM.
int quartet_wal_buffer_register(const char *name, unsigned int capacity);

/// Process-wide totals since start: writes SQLite made to buffered WAL files, and writes of those files
/// that reached the file system (buffer flushes plus writes too large to buffer).
void quartet_wal_buffer_counters(unsigned long long *sqliteWrites, unsigned long long *fileWrites);

#endif
