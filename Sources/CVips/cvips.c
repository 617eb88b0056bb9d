// libvips behind plain C functions for the Files module's image variants. See include/cvips.h.
#include "cvips.h"
#include "vips_api.h"

#include <dlfcn.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VipsAPI api;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = CVIPS_ERROR_INIT;
static int init_concurrency = 0;
/// Why loading failed, reported once by cvips_error_take.
static char load_error[512];
static int load_error_pending = 0;

/// Values of libvips enums, looked up by nickname at start.
static int access_sequential = -1;
static int fail_on_error = -1;
static int size_force = -1;

/// libvips logs a warning for each damaged file it reads (in the "VIPS" log domain). The caller reports
/// the outcome itself, and a stream of crafted uploads must not be able to fill the daemon's stderr.
static void drop_log(const char *domain, int level, const char *message, void *data) {
    (void) domain; (void) level; (void) message; (void) data;
}

static void fail_load(const char *what, const char *detail) {
    snprintf(load_error, sizeof load_error, "libvips: %s%s%s", what, detail ? ": " : "", detail ? detail : "");
    load_error_pending = 1;
}

/// Resolves every function of VipsAPI; false (with load_error set) when one is missing.
static int resolve(void *library) {
#define RESOLVE(field, symbol)                                       \
    do {                                                             \
        *(void **) (&api.field) = dlsym(library, symbol);            \
        if (api.field == NULL) {                                     \
            fail_load("missing function", symbol);                   \
            return 0;                                                \
        }                                                            \
    } while (0)
    RESOLVE(init, "vips_init");
    RESOLVE(version, "vips_version");
    RESOLVE(cache_set_max, "vips_cache_set_max");
    RESOLVE(cache_set_max_mem, "vips_cache_set_max_mem");
    RESOLVE(cache_set_max_files, "vips_cache_set_max_files");
    RESOLVE(concurrency_set, "vips_concurrency_set");
    RESOLVE(block_untrusted_set, "vips_block_untrusted_set");
    RESOLVE(operation_block_set, "vips_operation_block_set");
    RESOLVE(enum_from_nick, "vips_enum_from_nick");
    RESOLVE(access_get_type, "vips_access_get_type");
    RESOLVE(fail_on_get_type, "vips_fail_on_get_type");
    RESOLVE(size_get_type, "vips_size_get_type");
    RESOLVE(source_new_from_file, "vips_source_new_from_file");
    RESOLVE(jpegload_source, "vips_jpegload_source");
    RESOLVE(pngload_source, "vips_pngload_source");
    RESOLVE(gifload_source, "vips_gifload_source");
    RESOLVE(thumbnail, "vips_thumbnail");
    RESOLVE(extract_area, "vips_extract_area");
    RESOLVE(jpegsave_buffer, "vips_jpegsave_buffer");
    RESOLVE(pngsave_buffer, "vips_pngsave_buffer");
    RESOLVE(gifsave_buffer, "vips_gifsave_buffer");
    RESOLVE(image_copy_memory, "vips_image_copy_memory");
    RESOLVE(autorot, "vips_autorot");
    RESOLVE(getpoint, "vips_getpoint");
    RESOLVE(image_get_width, "vips_image_get_width");
    RESOLVE(image_get_height, "vips_image_get_height");
    RESOLVE(image_get_orientation, "vips_image_get_orientation");
    RESOLVE(image_get_n_pages, "vips_image_get_n_pages");
    RESOLVE(image_get_typeof, "vips_image_get_typeof");
    RESOLVE(error, "vips_error");
    RESOLVE(error_buffer_copy, "vips_error_buffer_copy");
    RESOLVE(tracked_get_mem_highwater, "vips_tracked_get_mem_highwater");
    // GLib and GObject come with libvips; dlsym on its handle searches its dependencies too.
    RESOLVE(object_unref, "g_object_unref");
    RESOLVE(free, "g_free");
    RESOLVE(log_set_handler, "g_log_set_handler");
#undef RESOLVE
    return 1;
}

static void init_once_body(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fail_load("cannot load libvips.so.42 (Debian package libvips42)", dlerror());
        return;
    }
    if (!resolve(library)) return;
    if (api.init("quartet") != 0) {
        fail_load("vips_init failed", NULL);
        return;
    }
    // vips_operation_block_set, which keeps every other loader away from uploads, came with 8.13.
    if (api.version(0) != 8 || api.version(1) < 13) {
        fail_load("version 8.13 or later is needed", NULL);
        return;
    }
    access_sequential = api.enum_from_nick("cvips", api.access_get_type(), "sequential");
    fail_on_error = api.enum_from_nick("cvips", api.fail_on_get_type(), "error");
    size_force = api.enum_from_nick("cvips", api.size_get_type(), "force");
    if (access_sequential < 0 || fail_on_error < 0 || size_force < 0) {
        fail_load("unknown enum values", NULL);
        return;
    }
    // Variants are decoded once and then cached on disk: libvips' operation cache would only keep
    // decoded images, memory and open files around.
    api.cache_set_max(0);
    api.cache_set_max_mem(0);
    api.cache_set_max_files(0);
    if (init_concurrency > 0) api.concurrency_set(init_concurrency);
    // Only the three formats of the resizing rules may ever reach a decoder: everything else (including
    // the ImageMagick, PDF and SVG loaders a sniffing load could pick for a crafted file) is blocked.
    api.block_untrusted_set(1);
    api.operation_block_set("VipsForeignLoad", 1);
    api.operation_block_set("VipsForeignLoadJpeg", 0);
    api.operation_block_set("VipsForeignLoadPng", 0);
    api.operation_block_set("VipsForeignLoadNsgif", 0);
    api.operation_block_set("VipsForeignSave", 1);
    api.operation_block_set("VipsForeignSaveJpeg", 0);
    api.operation_block_set("VipsForeignSavePng", 0);
    api.operation_block_set("VipsForeignSaveCgif", 0);
    api.log_set_handler("VIPS", CVIPS_G_LOG_LEVEL_WARNING | CVIPS_G_LOG_LEVEL_MESSAGE | CVIPS_G_LOG_LEVEL_INFO |
                                    CVIPS_G_LOG_LEVEL_DEBUG, drop_log, NULL);
    init_result = CVIPS_OK;
}

int cvips_init(int concurrency) {
    init_concurrency = concurrency;
    pthread_once(&init_once, init_once_body);
    return init_result;
}

/// Opens the header of `source` with the loader for `format` only, sequential access, failing on
/// truncation and decoder errors (by default libvips would fill a missing part with grey).
static int load_header(VipsSource *source, int format, VipsImage **out) {
    switch (format) {
    case CVIPS_FORMAT_JPEG:
        return api.jpegload_source(source, out, "access", access_sequential, "fail_on", fail_on_error, NULL);
    case CVIPS_FORMAT_PNG:
        return api.pngload_source(source, out, "access", access_sequential, "fail_on", fail_on_error, NULL);
    case CVIPS_FORMAT_GIF:
        // n = 1: the first frame only.
        return api.gifload_source(source, out, "access", access_sequential, "fail_on", fail_on_error, "n", 1,
                                  NULL);
    default:
        api.error("cvips", "unsupported format %d", format);
        return -1;
    }
}

int cvips_header_read(const char *path, int format, cvips_header *header) {
    if (init_result != CVIPS_OK) return CVIPS_ERROR_INIT;
    VipsSource *source = api.source_new_from_file(path);
    if (source == NULL) return CVIPS_ERROR_DECODE;
    VipsImage *image = NULL;
    int failed = load_header(source, format, &image);
    api.object_unref(source);
    if (failed) return CVIPS_ERROR_DECODE;
    header->width = api.image_get_width(image);
    header->height = api.image_get_height(image);
    header->orientation = api.image_get_orientation(image);
    header->has_icc = api.image_get_typeof(image, "icc-profile-data") != 0;
    header->pages = api.image_get_n_pages(image);
    api.object_unref(image);
    return CVIPS_OK;
}

/// Scales the upright image to exactly width x height: shrink-on-load for JPEG, sequential decoding,
/// EXIF orientation applied, first page only. With an ICC profile the result is converted to sRGB, so
/// that stripping the metadata on save does not change its colours.
///
/// This is the file form of vips_thumbnail (the one vipsthumbnail uses): in libvips 8.14 the source form
/// does not hand `fail_on` to the PNG loader, and a corrupt PNG then decodes to a picture of garbage.
static int thumbnail(const char *input, int width, int height, int has_icc, VipsImage **out) {
    // libvips reads a trailing "[...]" of a file name as load options; an empty pair of brackets
    // appended means the whole path is the name, whatever it ends with.
    size_t length = strlen(input);
    char *name = malloc(length + 3);
    if (name == NULL) return -1;
    memcpy(name, input, length);
    memcpy(name + length, "[]", 3);
    int failed;
    if (has_icc) {
        failed = api.thumbnail(name, out, width, "height", height, "size", size_force, "fail_on", fail_on_error,
                               "export_profile", "srgb", NULL);
    } else {
        failed = api.thumbnail(name, out, width, "height", height, "size", size_force, "fail_on", fail_on_error,
                               NULL);
    }
    free(name);
    return failed;
}

/// Encodes `image` as `format`, without metadata. Pixels are computed here (libvips is lazy), so a
/// truncated or corrupt input fails at this point.
static int save(VipsImage *image, int format, int quality, void **buffer, size_t *length) {
    switch (format) {
    case CVIPS_FORMAT_JPEG:
        return api.jpegsave_buffer(image, buffer, length, "Q", quality, "strip", 1, NULL);
    case CVIPS_FORMAT_PNG:
        return api.pngsave_buffer(image, buffer, length, "strip", 1, NULL);
    case CVIPS_FORMAT_GIF:
        return api.gifsave_buffer(image, buffer, length, "strip", 1, NULL);
    default:
        api.error("cvips", "unsupported format %d", format);
        return -1;
    }
}

int cvips_render(const char *input, const cvips_render_options *o, void **buffer, size_t *length, int *width,
                 int *height) {
    *buffer = NULL;
    *length = 0;
    if (init_result != CVIPS_OK) return CVIPS_ERROR_INIT;
    cvips_header header;
    int rc = cvips_header_read(input, o->format, &header);
    if (rc != CVIPS_OK) return rc;
    // Checked again here, from libvips' own reading of the header, before any pixel is decoded.
    if ((int64_t) header.width * (int64_t) header.height > o->max_pixels) return CVIPS_ERROR_TOO_LARGE;
    if (header.width != o->expected_width || header.height != o->expected_height ||
        header.orientation != o->expected_orientation) {
        api.error("cvips", "header %dx%d orientation %d, expected %dx%d orientation %d", header.width,
                  header.height, header.orientation, o->expected_width, o->expected_height,
                  o->expected_orientation);
        return CVIPS_ERROR_MISMATCH;
    }
    VipsImage *scaled = NULL;
    if (thumbnail(input, o->scaled_width, o->scaled_height, header.has_icc, &scaled)) return CVIPS_ERROR_DECODE;
    if (api.image_get_width(scaled) != o->scaled_width || api.image_get_height(scaled) != o->scaled_height) {
        api.error("cvips", "scaled to %dx%d, planned %dx%d", api.image_get_width(scaled),
                  api.image_get_height(scaled), o->scaled_width, o->scaled_height);
        api.object_unref(scaled);
        return CVIPS_ERROR_MISMATCH;
    }
    VipsImage *final = scaled;
    if (o->crop_width > 0) {
        VipsImage *cropped = NULL;
        int failed = api.extract_area(scaled, &cropped, o->crop_left, o->crop_top, o->crop_width, o->crop_height,
                                      NULL);
        api.object_unref(scaled);
        if (failed) return CVIPS_ERROR_DECODE;
        final = cropped;
    }
    int failed = save(final, o->format, o->jpeg_quality, buffer, length);
    *width = api.image_get_width(final);
    *height = api.image_get_height(final);
    api.object_unref(final);
    if (failed) {
        api.free(*buffer);
        *buffer = NULL;
        *length = 0;
        return CVIPS_ERROR_DECODE;
    }
    return CVIPS_OK;
}

int cvips_pixel(const char *path, int format, int x, int y, double values[4], int *bands) {
    if (init_result != CVIPS_OK) return CVIPS_ERROR_INIT;
    VipsSource *source = api.source_new_from_file(path);
    if (source == NULL) return CVIPS_ERROR_DECODE;
    VipsImage *image = NULL;
    int failed = load_header(source, format, &image);
    api.object_unref(source);
    if (failed) return CVIPS_ERROR_DECODE;
    // Turning the picture needs random access: decode it into memory first.
    VipsImage *memory = api.image_copy_memory(image);
    api.object_unref(image);
    if (memory == NULL) return CVIPS_ERROR_DECODE;
    VipsImage *upright = NULL;
    failed = api.autorot(memory, &upright, NULL);
    api.object_unref(memory);
    if (failed) return CVIPS_ERROR_DECODE;
    double *vector = NULL;
    int n = 0;
    failed = api.getpoint(upright, &vector, &n, x, y, NULL);
    api.object_unref(upright);
    if (failed) return CVIPS_ERROR_DECODE;
    for (int i = 0; i < 4; i++) values[i] = i < n ? vector[i] : 0;
    *bands = n;
    api.free(vector);
    return CVIPS_OK;
}

char *cvips_error_take(void) {
    if (init_result != CVIPS_OK) {
        if (!load_error_pending) return NULL;
        load_error_pending = 0;
        return strdup(load_error);
    }
    char *text = api.error_buffer_copy();
    if (text == NULL) return NULL;
    char *copy = text[0] == '\0' ? NULL : strdup(text);
    api.free(text);
    return copy;
}

void cvips_free_text(char *text) {
    free(text);
}

void cvips_free_buffer(void *buffer) {
    if (buffer != NULL && init_result == CVIPS_OK) api.free(buffer);
}

int64_t cvips_tracked_highwater(void) {
    return init_result == CVIPS_OK ? (int64_t) api.tracked_get_mem_highwater() : 0;
}

void cvips_release_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
