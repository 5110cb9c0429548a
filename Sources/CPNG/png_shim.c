// libpng reports errors by longjmp, which Swift cannot express: this file owns every setjmp
// and turns libpng's errors into return codes and messages. A failed system call is returned
// as its errno, never worded here: the Swift side words every errno in one place.
#include "png_shim.h"
#include <png.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    jmp_buf jump;
    char *error;
    size_t error_size;
} shim_state;

static void shim_error(png_structp png, png_const_charp message) {
    shim_state *state = (shim_state *)png_get_error_ptr(png);
    if (state->error && state->error_size) {
        snprintf(state->error, state->error_size, "%s", message);
    }
    longjmp(state->jump, 1);
}

static void shim_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int transect_png_read_rgba(const char *path, unsigned char **pixels, int *width, int *height,
                           int *system_error, char *error, size_t error_size) {
    return transect_png_read_rgba_limited(path, 0, NULL, pixels, width, height, NULL, system_error, error, error_size);
}

int transect_png_read_rgba_limited(const char *path, size_t max_pixels, unsigned char *into, unsigned char **pixels,
                                   int *width, int *height, int *color_type, int *system_error, char *error,
                                   size_t error_size) {
    *pixels = NULL;
    *system_error = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        *system_error = errno;
        return 1;
    }
    unsigned char signature[8];
    if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        snprintf(error, error_size, "not a PNG file");
        fclose(file);
        return 1;
    }
    shim_state state = {.error = error, .error_size = error_size};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, shim_error, shim_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        snprintf(error, error_size, "out of memory");
        png_destroy_read_struct(&png, NULL, NULL);
        fclose(file);
        return 1;
    }
    unsigned char *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(state.jump)) {
        if (buffer != into) free(buffer);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        return 1;
    }
    png_init_io(png, file);
    png_set_sig_bytes(png, 8);
#if defined(PNG_IGNORE_ADLER32) && defined(PNG_SET_OPTION_SUPPORTED)
    // Every IDAT chunk's CRC-32 is still checked, and covers the same bytes.
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w == 0 || h == 0 || w > 100000 || h > 100000) png_error(png, "image size out of range");
    if (max_pixels > 0 && (size_t)w * (size_t)h > max_pixels) {
        snprintf(error, error_size, "%lu x %lu pixels, over the limit of %zu", (unsigned long)w, (unsigned long)h, max_pixels);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        return 1;
    }
    if (color_type) *color_type = png_get_color_type(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = (size_t)w * 4;
    if (into && ((png_uint_32)*width != w || (png_uint_32)*height != h)) png_error(png, "the image changed while it was read");
    buffer = into ? into : malloc(stride * h);
    if (!buffer) png_error(png, "out of memory");
    rows = malloc(sizeof(png_bytep) * h);
    if (!rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = buffer + y * stride;
    png_read_image(png, rows);
    free(rows);
    rows = NULL;
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    *pixels = buffer;
    *width = (int)w;
    *height = (int)h;
    return 0;
}
