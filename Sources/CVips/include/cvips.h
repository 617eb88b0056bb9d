// Non-variadic wrappers around the libvips calls Quartet needs. libvips passes optional arguments as
// NULL-terminated variadic lists, which Swift cannot call; these functions take plain values instead.
//
// libvips is not linked: cvips_init loads the system library (libvips.so.42, Debian libvips42) with
// dlopen on first use. Linking it would map its hundred dependent libraries into every daemon at start
// (about 20 MB of resident memory) whether or not an image is ever resized.
//
// Only the Files module imports this. Every function is safe to call from several threads at once once
// cvips_init has returned. Paths are used as they are (no libvips "[options]" suffix parsing).
#ifndef CVIPS_H
#define CVIPS_H

#include <stddef.h>
#include <stdint.h>

/// Image formats the shim loads and saves. Every other libvips loader and saver is blocked.
enum {
    CVIPS_FORMAT_JPEG = 1,
    CVIPS_FORMAT_PNG = 2,
    CVIPS_FORMAT_GIF = 3,
};

/// Results of the functions below.
enum {
    CVIPS_OK = 0,
    /// libvips could not read or decode the file (truncated, corrupt, unsupported inside).
    CVIPS_ERROR_DECODE = -1,
    /// The header declares more pixels than allowed.
    CVIPS_ERROR_TOO_LARGE = -2,
    /// libvips sees other dimensions or another orientation than the caller planned with.
    CVIPS_ERROR_MISMATCH = -3,
    /// libvips could not be loaded or started (see cvips_error_take).
    CVIPS_ERROR_INIT = -4,
};

/// Loads and starts libvips once per process (later calls return the first result): `concurrency`
/// worker threads per pipeline (0 keeps libvips' default), no operation cache (each variant is decoded
/// once and then cached on disk by the caller, so libvips' cache would only hold memory and files),
/// only the JPEG, PNG and GIF loaders and savers enabled, and libvips' warnings kept off stderr.
int cvips_init(int concurrency);

/// What a file's header says, read without decoding pixels.
typedef struct {
    /// Stored dimensions, before orientation; for a GIF, the first frame's canvas.
    int width;
    int height;
    /// EXIF orientation 1...8 (1 when there is none).
    int orientation;
    /// 1 when the file carries an ICC profile.
    int has_icc;
    /// Frames in the file (GIF), else 1.
    int pages;
} cvips_header;

/// Reads the header of the image at `path` with the loader for `format` only.
int cvips_header_read(const char *path, int format, cvips_header *header);

/// One resize, planned by the caller in the displayed (post-orientation) frame.
typedef struct {
    /// CVIPS_FORMAT_*: the input's format, which is also the output's.
    int format;
    /// What the caller read from the header; libvips must agree, else CVIPS_ERROR_MISMATCH.
    int expected_width;
    int expected_height;
    int expected_orientation;
    /// Header pixel cap, checked again before anything is decoded (CVIPS_ERROR_TOO_LARGE).
    int64_t max_pixels;
    /// The upright image is scaled to exactly this size (shrink-on-load where the format allows it)...
    int scaled_width;
    int scaled_height;
    /// ...then, when crop_width > 0, cut to this rectangle of the scaled image.
    int crop_left;
    int crop_top;
    int crop_width;
    int crop_height;
    /// JPEG quality, 1...100.
    int jpeg_quality;
} cvips_render_options;

/// Decodes `input` (first frame only for a GIF, EXIF orientation applied, sequential access, failing
/// on truncation and decoder errors), scales and crops it as `options` say, and encodes it in the same
/// format with metadata stripped (an embedded ICC profile is first converted to sRGB). On success
/// `*buffer` holds the encoded file (`*length` bytes; free it with cvips_free_buffer) and `width` /
/// `height` its size. Pixels are decoded while encoding (libvips is lazy), so a damaged input fails
/// there; nothing is written to disk here.
int cvips_render(const char *input, const cvips_render_options *options, void **buffer, size_t *length,
                 int *width, int *height);

/// Decodes the image at `path` (upright: EXIF orientation applied; a GIF's first frame) and stores the
/// pixel at (`x`, `y`) in `values` (up to 4 bands, 0...255 for 8-bit images) and its band count in
/// `bands`. For checking variants; it decodes the whole picture, so it is meant for small files.
int cvips_pixel(const char *path, int format, int x, int y, double values[4], int *bands);

/// Takes the pending error text (libvips' buffer is shared by every thread) and clears it; NULL when
/// there is none. Free it with cvips_free_text.
char *cvips_error_take(void);

/// Frees text from cvips_error_take.
void cvips_free_text(char *text);

/// Frees a buffer from cvips_render (NULL is fine).
void cvips_free_buffer(void *buffer);

/// Asks the C allocator to return free memory to the system (glibc's malloc_trim): decoders allocate
/// tens of megabytes per image and glibc keeps freed blocks in the thread's arena otherwise.
void cvips_release_memory(void);

/// The most memory libvips has tracked as allocated at once, in bytes (pixel buffers; not the
/// decoders' own allocations); 0 before libvips is loaded.
int64_t cvips_tracked_highwater(void);

#endif
