#if canImport(CKernelHints)
import CKernelHints
#endif

/// What the SIMD kernels ask of the CPU beyond Swift's vector types, through the header-only C
/// target `CKernelHints`. A build of these sources without it (the fuzzing build compiles them
/// with `swiftc` alone) gets the portable answers: no prefetch, the libm-free floor. Either way
/// every result is the same; only the speed differs.
public enum KernelHints {
    /// Prefetches the cache line holding `address` for a read (`prefetcht0`): a hint that never
    /// faults, so any address will do, but only one inside the data helps.
    @inlinable @inline(__always)
    public static func prefetch(_ address: UnsafeRawPointer) {
        #if canImport(CKernelHints)
        transect_prefetch(address)
        #endif
    }

    /// ⌊x⌋ as an index, for a caller that checks it against its bounds: `Int(x.rounded(.down))`
    /// without Swift's trap for a value beyond `Int`, whose test and branch in the sweep's
    /// bounds looks cost about 4 % of a single-threaded 4096² viewshed. A NaN or a value beyond
    /// `Int` gives `Int.min`, which no index check passes.
    @inlinable @inline(__always)
    public static func floorIndex(_ x: Double) -> Int {
        #if canImport(CKernelHints)
        return transect_floor_index(x)
        #else
        return x >= -0x1p63 && x < 0x1p63 ? Int(x.rounded(.down)) : .min
        #endif
    }

    /// True when the build's target CPU floors SIMD lanes in one instruction (SSE4.1 `roundpd`,
    /// so the x86-64-v3 release build); a constant the optimiser folds.
    @inlinable @inline(__always)
    public static var roundsVectors: Bool {
        #if canImport(CKernelHints)
        return TRANSECT_TARGET_ROUNDS_VECTORS != 0
        #else
        return false
        #endif
    }

    /// The 32 bytes at `p` as three bit masks (bit k for `p[k]`): line feeds, NUL bytes, and
    /// the bytes a blank-looking line may begin with (LF, CR, space, tab, and every byte from
    /// 0x80). `vpmovmskb` where the header is there, a byte loop where it is not: the same masks.
    @inlinable @inline(__always)
    public static func classify32(_ p: UnsafePointer<UInt8>) -> (lineFeeds: UInt32, nuls: UInt32, blankStarts: UInt32) {
        #if canImport(CKernelHints)
        let c = transect_classify_32_bytes(p)
        return (c.lineFeeds, c.nuls, c.blankStarts)
        #else
        var masks: (lineFeeds: UInt32, nuls: UInt32, blankStarts: UInt32) = (0, 0, 0)
        for k in 0..<32 {
            let b = p[k]
            let bit = UInt32(1) << UInt32(k)
            if b == 0x0A { masks.lineFeeds |= bit }
            if b == 0 { masks.nuls |= bit }
            if b == 0x0A || b == 0x0D || b == 0x20 || b == 0x09 || b >= 0x80 { masks.blankStarts |= bit }
        }
        return masks
        #endif
    }
}
