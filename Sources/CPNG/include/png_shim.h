#ifndef TRANSECT_PNG_SHIM_H
#define TRANSECT_PNG_SHIM_H
#include <stddef.h>

/// One text chunk: a Latin-1 keyword (1–79 bytes) and its text, NUL-terminated: Latin-1 in a
/// tEXt chunk, or, when `utf8` is not 0, UTF-8 in an iTXt chunk (uncompressed, no language).
typedef struct {
    const char *key;
    const char *text;
    int utf8;
} transect_png_text;

/// The pixels `transect_png_encode` takes, each row `stride` bytes from the one before.
enum {
    /// One grey byte per pixel.
    TRANSECT_PNG_GREY8 = 1,
    /// Red, green, blue bytes.
    TRANSECT_PNG_RGB8 = 3,
    /// Red, green, blue, alpha bytes (straight alpha).
    TRANSECT_PNG_RGBA8 = 4,
    /// cairo's ARGB32: a native-endian 32-bit word per pixel, colour premultiplied by alpha;
    /// written as opaque RGB composited over white (c + 255 − a).
    TRANSECT_PNG_ARGB32_OVER_WHITE = 32,
};

/// How `transect_png_encode` compresses. The file's bytes depend on these and the pixels, and
/// on nothing else (not on `threads`).
typedef struct {
    /// zlib's level, 0–9.
    int level;
    /// zlib's strategy: Z_DEFAULT_STRATEGY (0), Z_FILTERED (1), Z_HUFFMAN_ONLY (2), Z_RLE (3).
    int strategy;
    /// A second level and strategy: each strip is deflated with whichever of the two deflates
    /// its first eighth (all of a strip under 64 KiB) shorter; −1 for none.
    int alternative_level;
    int alternative_strategy;
    /// The row filter: 0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth, or −1 for the type chosen per
    /// row by the least sum of the filtered bytes' magnitudes (libpng's adaptive heuristic).
    int filter;
    /// Rows per strip, each deflated on its own (`transect_png_default_strip_rows`).
    int strip_rows;
    /// Threads to deflate on, the caller's among them (1: the caller's alone).
    int threads;
} transect_png_settings;

/// About 256 KiB of filtered rows (`width` × `channels` + 1 bytes each), at least 4 rows.
int transect_png_default_strip_rows(int width, int channels);

/// Writes an 8-bit PNG without libpng: IHDR, pHYs when `dpi` > 0, the tEXt chunks in order, the
/// image data (one zlib stream of strips deflated in parallel, in IDAT chunks of 256 KiB) and
/// IEND. Opaque colour (RGB8, ARGB32) whose every pixel is grey is written as greyscale. No tIME
/// chunk, so the bytes depend on the pixels, texts and settings alone. Returns 0 on success. On
/// failure, a failed system call (fopen, fwrite, fflush, fclose) leaves its errno in
/// `*system_error`; any other failure leaves 0 there and a message in `error`.
int transect_png_encode(const char *path, const unsigned char *pixels, int format, int width, int height, size_t stride,
                        const transect_png_text *texts, int text_count, double dpi,
                        const transect_png_settings *settings, int *system_error, char *error, size_t error_size);

/// Reads any PNG as 8-bit RGBA into a buffer it allocates with malloc (`*pixels`, width × 4 bytes
/// per row); the caller frees it. Returns 0 on success; on failure, the errno of a failed
/// system call (fopen) in `*system_error`, or 0 there and libpng's or the shim's message in
/// `error`.
int transect_png_read_rgba(const char *path, unsigned char **pixels, int *width, int *height,
                           int *system_error, char *error, size_t error_size);

/// `transect_png_read_rgba`, refusing (before decoding) an image of more than `max_pixels` pixels
/// when `max_pixels` > 0, and leaving the file's PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey
/// and alpha, 6 RGBA) in `*color_type` when it is not NULL. With `into` (not NULL), the pixels are
/// decoded there, which must hold `*width` × `*height` × 4 bytes (an image of another size is an
/// error), and `*pixels` is `into`; otherwise they are in a buffer allocated with malloc.
int transect_png_read_rgba_limited(const char *path, size_t max_pixels, unsigned char *into, unsigned char **pixels,
                                   int *width, int *height, int *color_type, int *system_error, char *error,
                                   size_t error_size);

#endif
