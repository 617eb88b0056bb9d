#include <zlib.h>

/* deflateInit2/inflateInit2 are macros over the *_ functions that pass the library's version and the
   stream's size; Swift cannot call macros, so these inline functions stand in for them. */
static inline int czlib_deflate_init(z_streamp stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

static inline int czlib_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
