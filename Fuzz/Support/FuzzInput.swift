// Shared by every harness in Fuzz/: compiled into each harness binary next to `<harness>.swift`.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`, copied into `Data` (the parsers take
/// `Data`; libFuzzer owns the buffer only for the duration of the call).
func fuzzData(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let bytes, count > 0 else { return Data() }
    return Data(bytes: bytes, count: count)
}
