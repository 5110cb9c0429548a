#ifndef TRANSECT_KERNEL_HINTS_H
#define TRANSECT_KERNEL_HINTS_H
// What the core's SIMD kernels need from the compiler but Swift cannot spell: a software
// prefetch, whether the CPU the build targets rounds a vector of doubles in one instruction, a
// floor to an index without a trap, and byte classes as bit masks (`movemask`) for scanning text.
// Header-only (static inline, so the Swift optimiser inlines it): nothing is linked, no library
// is loaded. TransectCore reaches it through KernelHints.swift only.

/// Asks the CPU to bring the cache line holding `address` towards L1 for a read, with high
/// temporal locality: `prefetcht0` on x86-64. A hint only: it never faults and changes no value.
static inline void transect_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// 1 when the target CPU has SSE4.1's `roundpd` (x86-64-v2 and up, so the x86-64-v3 release
/// build), where `rounded(.down)` on SIMD lanes is one instruction; 0 otherwise (the baseline
/// build, where it is a libm call per lane). Both are exact floors: only the speed differs.
#if defined(__SSE4_1__)
#define TRANSECT_TARGET_ROUNDS_VECTORS 1
#else
#define TRANSECT_TARGET_ROUNDS_VECTORS 0
#endif

/// The floor of `x` as an integer, for `x` a cell coordinate whose caller checks the result
/// against the raster's bounds. On x86-64, `roundsd` and `cvttsd2si` with no test: a NaN or a
/// value beyond the integers gives the instruction's LONG_MIN, which no bounds check passes.
/// Elsewhere the same answer through an explicit test.
static inline long transect_floor_index(double x) {
#if defined(__x86_64__)
    long r;
    __asm__("cvttsd2si %1, %0" : "=r"(r) : "x"(__builtin_floor(x)));
    return r;
#else
    return (x == x && x >= -0x1p63 && x < 0x1p63) ? (long)__builtin_floor(x) : (long)(-0x7fffffffffffffffL - 1);
#endif
}

#include <stdint.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

/// Three classes of the 32 bytes at `p`, as bit masks (bit k for `p[k]`): line feeds; NUL
/// bytes; and the bytes a blank-looking line may begin with (LF, CR, space, tab, and every
/// byte from 0x80, where a byte order mark or a Unicode space starts). One `vpcmpeqb` and
/// `vpmovmskb` per class on AVX2, two on SSE2: the byte masks Swift's vector types cannot give.
/// Reads exactly 32 bytes.
typedef struct {
    uint32_t lineFeeds;
    uint32_t nuls;
    uint32_t blankStarts;
} transect_byte_classes;

static inline transect_byte_classes transect_classify_32_bytes(const uint8_t *p) {
    transect_byte_classes c;
#if defined(__AVX2__)
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    __m256i lf = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x0A));
    __m256i blank = _mm256_or_si256(
        _mm256_or_si256(lf, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x0D))),
        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x20)), _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x09))));
    c.lineFeeds = (uint32_t)_mm256_movemask_epi8(lf);
    c.nuls = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256()));
    // A byte from 0x80 has its top bit set, which is what movemask collects.
    c.blankStarts = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(blank, v));
#elif defined(__SSE2__)
    c.lineFeeds = 0;
    c.nuls = 0;
    c.blankStarts = 0;
    for (int half = 0; half < 2; half++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * half));
        __m128i lf = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x0A));
        __m128i blank = _mm_or_si128(
            _mm_or_si128(lf, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x0D))),
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x09))));
        c.lineFeeds |= (uint32_t)_mm_movemask_epi8(lf) << (16 * half);
        c.nuls |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) << (16 * half);
        c.blankStarts |= (uint32_t)_mm_movemask_epi8(_mm_or_si128(blank, v)) << (16 * half);
    }
#else
    c.lineFeeds = 0;
    c.nuls = 0;
    c.blankStarts = 0;
    for (int k = 0; k < 32; k++) {
        uint8_t b = p[k];
        c.lineFeeds |= (uint32_t)(b == 0x0A) << k;
        c.nuls |= (uint32_t)(b == 0) << k;
        c.blankStarts |= (uint32_t)(b == 0x0A || b == 0x0D || b == 0x20 || b == 0x09 || b >= 0x80) << k;
    }
#endif
    return c;
}

#endif
