// The PNG writer: rows filtered one by one, deflated in strips on several threads and joined
// into one zlib stream, so the file's bytes depend on the pixels and settings alone, never on
// the thread count. zlib does the deflating; libpng is not used here.
//
// Each strip of `strip_rows` rows is deflated as raw deflate by its own stream and ends with a
// full flush (the last one with finish), so its bytes end on a byte boundary after a
// non-final block and the strips can be concatenated after one zlib header. Every strip starts
// from an empty dictionary, so no strip refers back into another. The stream's Adler-32 is the
// strips' checksums joined with adler32_combine.
#include "png_shim.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { IDAT_BYTES = 1 << 18 };

/// One strip's result: its deflated bytes, the Adler-32 and length of its filtered rows, and
/// whether every pixel in it is grey (R = G = B, for the first pass).
typedef struct {
    unsigned char *data;
    size_t size;
    uLong adler;
    size_t raw;
    int grey;
    int failed;
} strip_result;

typedef struct {
    const unsigned char *pixels;
    size_t stride;
    int format;
    int width, height;
    int out_channels;
    transect_png_settings settings;
    int strips;
    int pass; // 0: grey scan, 1: deflate
    atomic_int next;
    strip_result *results;
} job;

/// Row `y` in the file's pixel layout (`out_channels` bytes per pixel) into `row`.
static void convert_row(const job *j, int y, unsigned char *row) {
    const unsigned char *src = j->pixels + (size_t)y * j->stride;
    int w = j->width;
    if (j->format == TRANSECT_PNG_ARGB32_OVER_WHITE) {
        const uint32_t *p = (const uint32_t *)(const void *)src;
        if (j->out_channels == 1) {
            for (int x = 0; x < w; x++) row[x] = (unsigned char)((p[x] & 0xff) + 255 - (p[x] >> 24));
        } else {
            for (int x = 0; x < w; x++) {
                uint32_t v = p[x], inverse = 255 - (v >> 24);
                // Premultiplied colour over white: c + (255 − a).
                row[3 * x] = (unsigned char)(((v >> 16) & 0xff) + inverse);
                row[3 * x + 1] = (unsigned char)(((v >> 8) & 0xff) + inverse);
                row[3 * x + 2] = (unsigned char)((v & 0xff) + inverse);
            }
        }
    } else if (j->format == TRANSECT_PNG_RGB8 && j->out_channels == 1) {
        for (int x = 0; x < w; x++) row[x] = src[3 * x];
    } else {
        memcpy(row, src, (size_t)w * (size_t)j->out_channels);
    }
}

/// Whether every pixel of rows [y0, y1) is grey.
static int rows_grey(const job *j, int y0, int y1) {
    for (int y = y0; y < y1; y++) {
        const unsigned char *src = j->pixels + (size_t)y * j->stride;
        if (j->format == TRANSECT_PNG_ARGB32_OVER_WHITE) {
            const uint32_t *p = (const uint32_t *)(const void *)src;
            uint32_t differ = 0;
            for (int x = 0; x < j->width; x++) {
                uint32_t v = p[x];
                differ |= ((v >> 16) ^ v) & 0xff;
                differ |= ((v >> 8) ^ v) & 0xff;
            }
            if (differ) return 0;
        } else {
            unsigned differ = 0;
            for (int x = 0; x < j->width; x++) differ |= (unsigned)(src[3 * x] ^ src[3 * x + 1]) | (unsigned)(src[3 * x] ^ src[3 * x + 2]);
            if (differ) return 0;
        }
    }
    return 1;
}

static inline unsigned char paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (unsigned char)((pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c));
}

/// The row filtered with `type` (0 None … 4 Paeth) into `out`; returns the sum of the filtered
/// bytes' magnitudes as signed bytes, the measure libpng's adaptive filter minimises.
static unsigned long filter_row(int type, const unsigned char *row, const unsigned char *up, size_t n, int bpp,
                                unsigned char *out) {
    size_t i;
    switch (type) {
    case 0: memcpy(out, row, n); break;
    case 1:
        for (i = 0; i < (size_t)bpp && i < n; i++) out[i] = row[i];
        for (; i < n; i++) out[i] = (unsigned char)(row[i] - row[i - bpp]);
        break;
    case 2:
        for (i = 0; i < n; i++) out[i] = (unsigned char)(row[i] - up[i]);
        break;
    case 3:
        for (i = 0; i < (size_t)bpp && i < n; i++) out[i] = (unsigned char)(row[i] - (up[i] >> 1));
        for (; i < n; i++) out[i] = (unsigned char)(row[i] - ((row[i - bpp] + up[i]) >> 1));
        break;
    default:
        for (i = 0; i < (size_t)bpp && i < n; i++) out[i] = (unsigned char)(row[i] - up[i]);
        for (; i < n; i++) out[i] = (unsigned char)(row[i] - paeth(row[i - bpp], up[i], up[i - bpp]));
        break;
    }
    unsigned long sum = 0;
    for (i = 0; i < n; i++) {
        int v = (signed char)out[i];
        sum += (unsigned long)(v < 0 ? -v : v);
    }
    return sum;
}

/// `raw` deflated as raw deflate with `level` and `strategy` into a new buffer, ending with a
/// full flush (`last`: with finish). Returns the buffer (NULL when out of memory).
static unsigned char *deflate_bytes(const unsigned char *raw, size_t n, int level, int strategy, int last, size_t *size) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) return NULL;
    // The bound covers the stream's blocks; the flush adds at most an empty stored block.
    size_t capacity = deflateBound(&z, (uLong)n) + 16;
    unsigned char *out = malloc(capacity);
    if (out) {
        z.next_in = (unsigned char *)raw;
        z.avail_in = (uInt)n;
        z.next_out = out;
        z.avail_out = (uInt)capacity;
        int status = deflate(&z, last ? Z_FINISH : Z_FULL_FLUSH);
        // Everything fits in the bound, so one call consumes it all.
        if (last ? status != Z_STREAM_END : status != Z_OK || z.avail_in != 0 || z.avail_out == 0) {
            free(out);
            out = NULL;
        }
        *size = capacity - z.avail_out;
    }
    deflateEnd(&z);
    return out;
}

/// Filters and deflates strip `s`: its rows, each with the row above (the strip before's last
/// row for its first), so the strip's bytes depend on the pixels alone. With an alternative
/// level and strategy the strip is deflated with whichever of the two deflates its first eighth
/// shorter (the first on a tie).
static int deflate_strip(const job *j, int s, strip_result *r) {
    int y0 = s * j->settings.strip_rows;
    int y1 = y0 + j->settings.strip_rows < j->height ? y0 + j->settings.strip_rows : j->height;
    int bpp = j->out_channels;
    size_t n = (size_t)j->width * (size_t)bpp;
    size_t raw_size = (n + 1) * (size_t)(y1 - y0);
    unsigned char *work = malloc(2 * n + 5 * (n + 1) + raw_size);
    if (!work) return 1;
    unsigned char *up = work, *row = work + n, *candidates = work + 2 * n, *raw = candidates + 5 * (n + 1);
    if (y0 > 0) convert_row(j, y0 - 1, up);
    for (int y = y0; y < y1; y++) {
        convert_row(j, y, row);
        const unsigned char *above = y > 0 ? up : NULL;
        int type = j->settings.filter;
        unsigned char *out = raw + (size_t)(y - y0) * (n + 1);
        if (type >= 0) {
            // Without a row above, Up is None and Average and Paeth are Sub: a decoder reads
            // the missing row as zeros.
            if (!above) type = type == 2 ? 0 : type >= 3 ? 1 : type;
            filter_row(type, row, above, n, bpp, out + 1);
        } else {
            // The adaptive choice: the type whose filtered bytes have the least sum of
            // magnitudes; ties go to the lower type.
            unsigned long best = 0;
            int last = above ? 4 : 1;
            type = 0;
            for (int t = 0; t <= last; t++) {
                unsigned long sum = filter_row(t, row, above, n, bpp, candidates + (size_t)t * (n + 1));
                if (t == 0 || sum < best) {
                    best = sum;
                    type = t;
                }
            }
            memcpy(out + 1, candidates + (size_t)type * (n + 1), n);
        }
        out[0] = (unsigned char)type;
        unsigned char *swap = up;
        up = row;
        row = swap;
    }
    r->raw = raw_size;
    r->adler = adler32(adler32(0L, Z_NULL, 0), raw, (uInt)raw_size);
    int last = y1 == j->height;
    int level = j->settings.level, strategy = j->settings.strategy;
    if (j->settings.alternative_level >= 0) {
        // Which of the two deflates the strip shorter, judged on its first eighth (all of a
        // strip under 64 KiB): the strip's bytes alone decide, never the thread count.
        size_t sample = raw_size < (1 << 16) ? raw_size : raw_size / 8, first = 0, second = 0;
        unsigned char *a = deflate_bytes(raw, sample, level, strategy, 1, &first);
        unsigned char *b = deflate_bytes(raw, sample, j->settings.alternative_level, j->settings.alternative_strategy, 1, &second);
        int ok = a && b;
        free(a);
        free(b);
        if (!ok) {
            free(work);
            return 1;
        }
        if (second < first) {
            level = j->settings.alternative_level;
            strategy = j->settings.alternative_strategy;
        }
    }
    r->data = deflate_bytes(raw, raw_size, level, strategy, last, &r->size);
    free(work);
    return r->data == NULL;
}

static void *work(void *argument) {
    job *j = argument;
    for (;;) {
        int s = atomic_fetch_add(&j->next, 1);
        if (s >= j->strips) return NULL;
        strip_result *r = &j->results[s];
        if (j->pass == 0) {
            int y0 = s * j->settings.strip_rows;
            int y1 = y0 + j->settings.strip_rows < j->height ? y0 + j->settings.strip_rows : j->height;
            r->grey = rows_grey(j, y0, y1);
        } else {
            r->failed = deflate_strip(j, s, r);
        }
    }
}

/// Runs the job's pass over every strip on `threads` threads, the caller's among them.
static void run_pass(job *j, int pass) {
    j->pass = pass;
    atomic_store(&j->next, 0);
    int extra = j->settings.threads - 1;
    if (extra > j->strips - 1) extra = j->strips - 1;
    pthread_t threads[64];
    int started = 0;
    for (; started < extra && started < 64; started++) {
        if (pthread_create(&threads[started], NULL, work, j) != 0) break;
    }
    work(j);
    for (int k = 0; k < started; k++) pthread_join(threads[k], NULL);
}

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/// Writes one chunk: length, type, data, CRC of type and data.
static int write_chunk(FILE *file, const char *type, const unsigned char *data, size_t size) {
    unsigned char head[8];
    put32(head, (uint32_t)size);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, head + 4, 4);
    if (size) crc = crc32(crc, data, (uInt)size);
    unsigned char tail[4];
    put32(tail, (uint32_t)crc);
    return fwrite(head, 1, 8, file) != 8 || (size && fwrite(data, 1, size, file) != size) || fwrite(tail, 1, 4, file) != 4;
}

/// Writes the zlib stream (header, strips, Adler-32) as IDAT chunks of at most IDAT_BYTES.
static int write_image_data(FILE *file, const job *j, const unsigned char header[2], uLong adler) {
    unsigned char *chunk = malloc(IDAT_BYTES);
    if (!chunk) return 1;
    unsigned char trailer[4];
    put32(trailer, (uint32_t)adler);
    size_t used = 0;
    int failed = 0;
    // The pieces in stream order: header, each strip, trailer.
    for (int piece = -1; piece <= j->strips && !failed; piece++) {
        const unsigned char *bytes = piece < 0 ? header : piece == j->strips ? trailer : j->results[piece].data;
        size_t size = piece < 0 ? 2 : piece == j->strips ? 4 : j->results[piece].size;
        while (size > 0 && !failed) {
            size_t take = IDAT_BYTES - used < size ? IDAT_BYTES - used : size;
            memcpy(chunk + used, bytes, take);
            used += take;
            bytes += take;
            size -= take;
            if (used == IDAT_BYTES) {
                failed = write_chunk(file, "IDAT", chunk, used);
                used = 0;
            }
        }
    }
    if (!failed && used > 0) failed = write_chunk(file, "IDAT", chunk, used);
    free(chunk);
    return failed;
}

int transect_png_default_strip_rows(int width, int channels) {
    // About 256 KiB of filtered rows per strip: enough for deflate to find its matches (its
    // window is 32 KiB), small enough that an 8000 × 8000 map makes a few hundred strips.
    size_t row = (size_t)width * (size_t)channels + 1;
    size_t rows = ((size_t)1 << 18) / row;
    return rows < 4 ? 4 : rows > 4096 ? 4096 : (int)rows;
}

static int fail(char *error, size_t error_size, const char *message) {
    snprintf(error, error_size, "%s", message);
    return 1;
}

int transect_png_encode(const char *path, const unsigned char *pixels, int format, int width, int height, size_t stride,
                        const transect_png_text *texts, int text_count, double dpi,
                        const transect_png_settings *settings, int *system_error, char *error, size_t error_size) {
    *system_error = 0;
    if (width < 1 || height < 1 || width > 1000000 || height > 1000000) return fail(error, error_size, "image size out of range");
    if (settings->strip_rows < 0 || settings->threads < 1 || settings->level < 0 || settings->level > 9 ||
        settings->alternative_level < -1 || settings->alternative_level > 9 || settings->filter < -1 || settings->filter > 4)
        return fail(error, error_size, "invalid PNG settings");
    int channels;
    switch (format) {
    case TRANSECT_PNG_GREY8: channels = 1; break;
    case TRANSECT_PNG_RGB8: channels = 3; break;
    case TRANSECT_PNG_RGBA8: channels = 4; break;
    case TRANSECT_PNG_ARGB32_OVER_WHITE: channels = 3; break;
    default: return fail(error, error_size, "unsupported pixel format");
    }
    for (int k = 0; k < text_count; k++) {
        size_t key = strlen(texts[k].key);
        if (key < 1 || key > 79) return fail(error, error_size, "a text keyword must be 1 to 79 bytes");
    }
    if ((size_t)settings->strip_rows * ((size_t)width * (size_t)channels + 1) > ((size_t)1 << 30))
        return fail(error, error_size, "strips of more than 1 GiB");
    job j = {.pixels = pixels, .stride = stride, .format = format, .width = width, .height = height,
             .out_channels = channels, .settings = *settings};
    // The grey scan goes by strips of the default size for RGB when none is given.
    int default_strips = j.settings.strip_rows == 0;
    if (default_strips) j.settings.strip_rows = transect_png_default_strip_rows(width, 3);
    j.strips = (height + j.settings.strip_rows - 1) / j.settings.strip_rows;
    j.results = calloc((size_t)j.strips, sizeof(strip_result));
    if (!j.results) return fail(error, error_size, "out of memory");
    // Opaque colour with every pixel grey is written as grey: each decoder expands it back to
    // the same RGB, in a third of the bytes.
    if (format == TRANSECT_PNG_RGB8 || format == TRANSECT_PNG_ARGB32_OVER_WHITE) {
        run_pass(&j, 0);
        int grey = 1;
        for (int s = 0; s < j.strips; s++) grey &= j.results[s].grey;
        if (grey) j.out_channels = 1;
    }
    // The strips' size follows from the width and the pixels written, never from the threads.
    if (default_strips) {
        j.settings.strip_rows = transect_png_default_strip_rows(width, j.out_channels);
        int strips = (height + j.settings.strip_rows - 1) / j.settings.strip_rows;
        if (strips > j.strips) {
            strip_result *grown = realloc(j.results, (size_t)strips * sizeof(strip_result));
            if (!grown) {
                free(j.results);
                return fail(error, error_size, "out of memory");
            }
            j.results = grown;
        }
        j.strips = strips;
        memset(j.results, 0, (size_t)strips * sizeof(strip_result));
    }
    run_pass(&j, 1);
    int status = 0;
    uLong adler = 0;
    for (int s = 0; s < j.strips; s++) {
        if (j.results[s].failed) status = fail(error, error_size, "out of memory");
        adler = s == 0 ? j.results[0].adler : adler32_combine(adler, j.results[s].adler, (z_off_t)j.results[s].raw);
    }
    FILE *file = status ? NULL : fopen(path, "wb");
    if (!status && !file) {
        *system_error = errno;
        status = 1;
    }
    if (file) {
        static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
        int failed = fwrite(signature, 1, 8, file) != 8;
        unsigned char ihdr[13];
        put32(ihdr, (uint32_t)width);
        put32(ihdr + 4, (uint32_t)height);
        static const unsigned char colour_types[5] = {0, 0, 0, 2, 6};
        ihdr[8] = 8;
        ihdr[9] = colour_types[j.out_channels];
        ihdr[10] = ihdr[11] = ihdr[12] = 0;
        failed = failed || write_chunk(file, "IHDR", ihdr, 13);
        if (dpi > 0) {
            unsigned char phys[9];
            uint32_t ppm = (uint32_t)(dpi / 0.0254 + 0.5);
            put32(phys, ppm);
            put32(phys + 4, ppm);
            phys[8] = 1;
            failed = failed || write_chunk(file, "pHYs", phys, 9);
        }
        for (int k = 0; k < text_count && !failed; k++) {
            size_t key = strlen(texts[k].key), value = strlen(texts[k].text);
            // iTXt: keyword, NUL, compression flag and method (0, 0), an empty language tag
            // and translated keyword (each NUL-terminated), then the UTF-8 text.
            size_t header = texts[k].utf8 ? key + 1 + 4 : key + 1;
            unsigned char *data = malloc(header + value);
            if (!data) {
                status = fail(error, error_size, "out of memory");
                break;
            }
            memset(data, 0, header);
            memcpy(data, texts[k].key, key);
            memcpy(data + header, texts[k].text, value);
            failed = write_chunk(file, texts[k].utf8 ? "iTXt" : "tEXt", data, header + value);
            free(data);
        }
        // The zlib header: deflate with a 32 KiB window, the level class zlib would state.
        int level = settings->level;
        int class = settings->strategy >= Z_HUFFMAN_ONLY || level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
        unsigned char header[2] = {0x78, (unsigned char)(class << 6)};
        header[1] = (unsigned char)(header[1] + 31 - (0x78 * 256 + header[1]) % 31);
        failed = failed || status || write_image_data(file, &j, header, adler);
        failed = failed || write_chunk(file, "IEND", NULL, 0);
        if (!status && (failed || fflush(file) != 0 || ferror(file))) {
            // A stream error may leave errno unset; the write failed all the same.
            *system_error = errno ? errno : EIO;
            status = 1;
        }
        if (fclose(file) != 0 && !status) {
            *system_error = errno;
            status = 1;
        }
    }
    for (int s = 0; s < j.strips; s++) free(j.results[s].data);
    free(j.results);
    return status;
}
