#include <sqlite3.h>

/// sqlite3_config is variadic, so Swift cannot call it; this sets SQLITE_CONFIG_MEMSTATUS. Only effective
/// before the library is initialised (the first connection opened initialises it).
static inline int quartet_sqlite3_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}
