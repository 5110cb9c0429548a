#ifndef TRANSECT_PNG_SHIM_H
#define TRANSECT_PNG_SHIM_H
#include <stddef.h>

/// One tEXt chunk: a Latin-1 keyword (1–79 bytes) and its text.
typedef struct {
    const char *key;
    const char *text;
} transect_png_text;

/// Writes an 8-bit PNG: `channels` 1 (grey), 3 (RGB) or 4 (RGBA), rows `stride` bytes apart.
/// No tIME chunk, so the bytes depend on the pixels and texts alone. `dpi` > 0 adds a pHYs chunk.
/// Returns 0 on success. On failure, a failed system call (fopen, fflush, fclose) leaves its
/// errno in `*system_error`; any other failure leaves 0 there and libpng's or the shim's message
/// in `error`.
int transect_png_write(const char *path, const unsigned char *pixels, int width, int height, int channels,
                       size_t stride, const transect_png_text *texts, int text_count, double dpi,
                       int compression_level, int *system_error, char *error, size_t error_size);

/// Reads any PNG as 8-bit RGBA into a buffer it allocates with malloc (`*pixels`, width × 4 bytes
/// per row); the caller frees it. Returns 0 on success; on failure, the errno of a failed
/// system call (fopen) in `*system_error`, or 0 there and libpng's or the shim's message in
/// `error`.
int transect_png_read_rgba(const char *path, unsigned char **pixels, int *width, int *height,
                           int *system_error, char *error, size_t error_size);

#endif
