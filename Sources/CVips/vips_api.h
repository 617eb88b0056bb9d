// The part of the libvips 8.x C API the shim uses, declared here because libvips is loaded at run time
// (see cvips.h) rather than compiled against. Every name below is resolved with dlsym from the loaded
// library; the types are the ones libvips' and GLib's headers give them (opaque where the shim only
// passes pointers along). Enum values are not copied: they are looked up by nickname at start.
#ifndef CVIPS_VIPS_API_H
#define CVIPS_VIPS_API_H

#include <stddef.h>

typedef struct VipsImage VipsImage;
typedef struct VipsSource VipsSource;
typedef int gboolean;
typedef unsigned long GType;
typedef void (*GLogFunc)(const char *domain, int level, const char *message, void *data);

/// GLib's log levels (fixed by GLib's ABI).
enum {
    CVIPS_G_LOG_LEVEL_WARNING = 1 << 4,
    CVIPS_G_LOG_LEVEL_MESSAGE = 1 << 5,
    CVIPS_G_LOG_LEVEL_INFO = 1 << 6,
    CVIPS_G_LOG_LEVEL_DEBUG = 1 << 7,
};

/// Function pointers into the loaded library, one per call the shim makes.
typedef struct {
    int (*init)(const char *argv0);
    int (*version)(int flag);
    void (*cache_set_max)(int max);
    void (*cache_set_max_mem)(size_t max);
    void (*cache_set_max_files)(int max);
    void (*concurrency_set)(int concurrency);
    void (*block_untrusted_set)(gboolean state);
    void (*operation_block_set)(const char *name, gboolean state);
    int (*enum_from_nick)(const char *domain, GType type, const char *nick);
    GType (*access_get_type)(void);
    GType (*fail_on_get_type)(void);
    GType (*size_get_type)(void);
    VipsSource *(*source_new_from_file)(const char *filename);
    int (*jpegload_source)(VipsSource *source, VipsImage **out, ...);
    int (*pngload_source)(VipsSource *source, VipsImage **out, ...);
    int (*gifload_source)(VipsSource *source, VipsImage **out, ...);
    int (*thumbnail)(const char *filename, VipsImage **out, int width, ...);
    int (*extract_area)(VipsImage *in, VipsImage **out, int left, int top, int width, int height, ...);
    int (*jpegsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*pngsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*gifsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    VipsImage *(*image_copy_memory)(VipsImage *image);
    int (*autorot)(VipsImage *in, VipsImage **out, ...);
    int (*getpoint)(VipsImage *in, double **vector, int *n, int x, int y, ...);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    int (*image_get_orientation)(VipsImage *image);
    int (*image_get_n_pages)(VipsImage *image);
    GType (*image_get_typeof)(const VipsImage *image, const char *name);
    void (*error)(const char *domain, const char *format, ...);
    char *(*error_buffer_copy)(void);
    size_t (*tracked_get_mem_highwater)(void);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    unsigned (*log_set_handler)(const char *domain, int levels, GLogFunc handler, void *data);
} VipsAPI;

#endif
