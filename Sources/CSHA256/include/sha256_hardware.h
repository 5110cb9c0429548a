#ifndef TRANSECT_SHA256_HARDWARE_H
#define TRANSECT_SHA256_HARDWARE_H
#include <stddef.h>
#include <stdint.h>

/// 1 when this processor has the SHA extensions (SHA256RNDS2, SHA256MSG1, SHA256MSG2) and the
/// SSSE3 and SSE4.1 instructions `transect_sha256_compress_hardware` also uses, by CPUID;
/// 0 otherwise (and on any processor that is not x86-64).
int transect_sha256_hardware_available(void);

/// SHA-256's compression function (FIPS 180-4, 6.2.2) over `blocks` 64-byte blocks at `data`,
/// updating `state` (H0…H7, as the standard numbers them). The same result as the portable
/// Swift loop, bit for bit.
/// Precondition: `transect_sha256_hardware_available()` returned 1.
void transect_sha256_compress_hardware(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
