#if canImport(CKernelHints)
import CKernelHints
#endif

/// What the SIMD kernels ask of the CPU beyond Swift's vector types, through the header-only C
/// target `CKernelHints`. A build of these sources without it (the fuzzing build compiles them
/// with `swiftc` alone) gets the portable answers: no prefetch, the libm-free floor. Either way
/// every result is the same; only the speed differs.
enum KernelHints {
    /// Prefetches the cache line holding `address` for a read (`prefetcht0`): a hint that never
    /// faults, so any address will do, but only one inside the data helps.
    @inline(__always)
    static func prefetch(_ address: UnsafeRawPointer) {
        #if canImport(CKernelHints)
        transect_prefetch(address)
        #endif
    }

    /// True when the build's target CPU floors SIMD lanes in one instruction (SSE4.1 `roundpd`,
    /// so the x86-64-v3 release build); a constant the optimiser folds.
    @inline(__always)
    static var roundsVectors: Bool {
        #if canImport(CKernelHints)
        return TRANSECT_TARGET_ROUNDS_VECTORS != 0
        #else
        return false
        #endif
    }
}
