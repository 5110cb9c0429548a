import CSHA256

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 (FIPS 180-4): the digest shard manifests pin inputs and outputs with.
///
/// The compression function runs on the processor's SHA extensions where CPUID reports them
/// (`CSHA256`, about ten times the speed), else as the portable Swift loop below; the two give
/// the same bits, and the portable one stays the reference the tests hold the other to.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(Array("abc".utf8))
/// hash.hexDigest  // "ba7816bf…"
/// ```
public struct SHA256: Sendable {
    /// Which compression function a hash runs.
    public enum Engine: Sendable, CaseIterable {
        /// The Swift loop: any processor.
        case portable
        /// The x86 SHA extensions (SHA256RNDS2, SHA256MSG1/2): only where ``hardwareAvailable``.
        case hardware
    }

    /// True when this processor has the SHA extensions (and SSSE3, SSE4.1), by CPUID.
    public static let hardwareAvailable = transect_sha256_hardware_available() != 0

    /// The compression function this hash runs.
    public let engine: Engine
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes not yet making a whole 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// A hash of the empty message, on `engine` (the hardware where it is available, by default).
    /// - Precondition: `engine` is not `.hardware` unless ``hardwareAvailable``.
    public init(engine: Engine? = nil) {
        let engine = engine ?? (Self.hardwareAvailable ? .hardware : .portable)
        precondition(engine == .portable || Self.hardwareAvailable, "this processor has no SHA extensions")
        self.engine = engine
        pending.reserveCapacity(64)
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / 64 * 64
        if whole > 0 { compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + whole])) }
        offset += whole
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of the message so far (the hash itself is left as it was).
    public var digest: [UInt8] {
        var copy = self
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        let used = Int(length % 64)
        tail += [UInt8](repeating: 0, count: (used < 56 ? 55 - used : 119 - used))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBytes { copy.update($0) }
        return copy.state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    /// ``digest`` in lower-case hexadecimal, as `sha256sum` prints it.
    public var hexDigest: String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Runs the compression function over `blocks` (a whole number of 64-byte blocks).
    private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        guard engine == .hardware, let base = blocks.baseAddress else { return compressPortably(blocks) }
        state.withUnsafeMutableBufferPointer { s in
            transect_sha256_compress_hardware(s.baseAddress, base.assumingMemoryBound(to: UInt8.self), blocks.count / 64)
        }
    }

    /// The portable compression function (FIPS 180-4, 6.2.2), with the state in locals and the
    /// message schedule as a rolling window of 16 words.
    private mutating func compressPortably(_ blocks: UnsafeRawBufferPointer) {
        var h0 = state[0]
        var h1 = state[1]
        var h2 = state[2]
        var h3 = state[3]
        var h4 = state[4]
        var h5 = state[5]
        var h6 = state[6]
        var h7 = state[7]
        Self.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
                var start = 0
                while start + 64 <= blocks.count {
                    for t in 0..<16 { w[t] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: start + 4 * t, as: UInt32.self)) }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let word: UInt32
                        if t < 16 {
                            word = w[t]
                        } else {
                            let w15 = w[(t - 15) & 15]
                            let w2 = w[(t - 2) & 15]
                            let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)
                            let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10)
                            word = w[t & 15] &+ s0 &+ w[(t - 7) & 15] &+ s1
                            w[t & 15] = word
                        }
                        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ word
                        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                    start += 64
                }
            }
        }
        state = [h0, h1, h2, h3, h4, h5, h6, h7]
    }

    @inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// The hex digest of the regular file at `path`, read in 1 MiB pieces.
    /// - Throws: the `SystemError` of the failed `open` or `read`, or of ``RegularFile``'s
    ///   refusal of a FIFO, device or directory (which could stall the open or never end).
    public static func hexDigest(ofFile path: String) throws(SystemError) -> String {
        let fd = try RegularFile.openForReading(path)
        defer { close(fd) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let piece = buffer.withUnsafeMutableBytes { b in
                Result { () throws(SystemError) in try SystemError.call(retryingInterrupts: true) { read(fd, b.baseAddress, b.count) } }
            }
            let n = try piece.get()
            if n == 0 { break }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return hash.hexDigest
    }
}
