#ifndef TRANSECT_KERNEL_HINTS_H
#define TRANSECT_KERNEL_HINTS_H
// What the core's SIMD kernels need from the compiler but Swift cannot spell: a software
// prefetch, and whether the CPU the build targets rounds a vector of doubles in one instruction.
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

#endif
