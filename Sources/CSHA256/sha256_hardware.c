// SHA-256's compression function on the x86 SHA extensions, chosen at run time by CPUID.
//
// The instructions, as Intel's Software Developer's Manual (volume 2) defines them:
// - SHA256RNDS2 dst, src, <xmm0> runs two rounds. `src` holds the working variables A, B, E, F
//   (A in the highest dword, F in the lowest), `dst` holds C, D, G, H in the same places, and
//   the low two dwords of xmm0 hold W[t] + K[t] and W[t+1] + K[t+1]. It returns the new A, B,
//   E, F; after two rounds the new C, D, G, H are the old A, B, E, F.
// - SHA256MSG1 a, b: with a = W[t..t+3] and b's lowest dword W[t+4], returns
//   W[t+i] + σ0(W[t+i+1]) for i = 0…3.
// - SHA256MSG2 a, b: with a = W[t-16+i] + σ0(W[t-15+i]) + W[t-7+i] (i = 0…3) and b =
//   W[t-4..t-1], adds σ1 of the words two back, W[t-2] and W[t-1] from b and then the two it has
//   just made, returning W[t..t+3].
// So each group of four message words after the first sixteen comes from the four groups before
// it: W[16..19] = MSG2(MSG1(W[0..3], W[4..7]) + W[9..12], W[12..15]).
#include "sha256_hardware.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

int transect_sha256_hardware_available(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    int sha = (b >> 29) & 1;
    return ssse3 && sse41 && sha;
}

// FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
// 64 primes, four to a group in the order the rounds take them.
static const uint32_t round_constants[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// The target attribute lets a baseline build (no -msha) carry this one function; it is only
// called after the CPUID check above.
__attribute__((target("sha,sse4.1,ssse3")))
void transect_sha256_compress_hardware(uint32_t state[8], const uint8_t *data, size_t blocks) {
    // Message words are big-endian: reverse the bytes of each dword.
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

    // state[0..3] = a b c d, state[4..7] = e f g h (lowest dword first); the rounds want
    // ABEF = (f e b a) and CDGH = (h g d c), lowest dword first.
    __m128i abcd = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i efgh = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i badc = _mm_shuffle_epi32(abcd, 0xB1);  // (b a d c)
    __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);  // (h g f e)
    __m128i abef = _mm_alignr_epi8(badc, hgfe, 8); // (f e b a)
    __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0); // (h g d c)

    for (size_t n = 0; n < blocks; n++, data += 64) {
        const __m128i saved_abef = abef, saved_cdgh = cdgh;
        __m128i w[4]; // the last four groups of message words, group g in w[g % 4]
        // Unrolled whole, so the four groups of words stay in registers.
#pragma clang loop unroll(full)
        for (int g = 0; g < 16; g++) {
            __m128i words;
            if (g < 4) {
                words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), byte_swap);
            } else {
                __m128i w16 = w[g & 3], w12 = w[(g + 1) & 3], w8 = w[(g + 2) & 3], w4 = w[(g + 3) & 3];
                __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));
                words = _mm_sha256msg2_epu32(partial, w4);
            }
            w[g & 3] = words;
            __m128i wk = _mm_add_epi32(words, _mm_load_si128((const __m128i *)&round_constants[4 * g]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);              // rounds 4g, 4g+1: new ABEF
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E)); // 4g+2, 4g+3
            // After four rounds the register named cdgh holds ABEF two rounds back, which is
            // the new CDGH, and abef holds the new ABEF: the names are right again.
        }
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0xB1); // (e f a b)
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0x1B); // (c d g h)
    _mm_storeu_si128((__m128i *)&state[0], _mm_alignr_epi8(dchg, feba, 8));   // (a b c d)
    _mm_storeu_si128((__m128i *)&state[4], _mm_blend_epi16(feba, dchg, 0xF0)); // (e f g h)
}

#else

int transect_sha256_hardware_available(void) { return 0; }

void transect_sha256_compress_hardware(uint32_t state[8], const uint8_t *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
    __builtin_trap();
}

#endif
