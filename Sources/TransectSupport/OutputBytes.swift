/// UTF-8 text assembled as bytes, for one large write: the batch writers (`measure --pairs`,
/// `profile` CSV and JSON) put each row's numbers here with
/// ``appendRounded(_:decimals:)`` instead of building a `String` per number.
///
/// ```swift
/// var out = OutputBytes()
/// out.append("id,")
/// out.appendRounded(-119.5234567, decimals: 4)   // -119.5235
/// out.append(0x0A)
/// ```
///
/// A value type over one array, so a batch's bytes can be made on one thread and written on
/// another.
public struct OutputBytes: Sendable {
    /// Storage: the first ``count`` bytes are the text, the rest room to grow into.
    @usableFromInline var storage: [UInt8]
    /// The number of bytes written.
    public var count: Int { written }
    @usableFromInline var written = 0

    public init(capacity: Int = 0) { storage = Self.room(capacity) }

    /// `count` bytes of room, left as they come (never read before they are written: only the
    /// first ``count`` bytes are ever handed out), so that no time goes into zeroing them.
    static func room(_ count: Int) -> [UInt8] { [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count } }

    public var isEmpty: Bool { count == 0 }

    /// The bytes written, as an array.
    public var bytes: [UInt8] { Array(storage[0..<count]) }

    /// Forgets the bytes, keeping the storage.
    public mutating func removeAll() { written = 0 }

    /// Keeps only the first `newCount` bytes.
    public mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "within the bytes written")
        written = newCount
    }

    /// Calls `body` with the bytes written.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        append(maximum: 1) {
            $0[0] = byte
            return 1
        }
    }

    /// Appends the UTF-8 of `text`.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends raw bytes.
    public mutating func append(_ raw: UnsafeBufferPointer<UInt8>) {
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        append(maximum: raw.count) {
            $0.update(from: base, count: raw.count)
            return raw.count
        }
    }

    /// Appends up to `maximum` bytes that `body` writes straight into the storage; `body`
    /// returns how many it wrote. Always inlined, so that `body` is too: the number writers
    /// then see their decimal counts as constants.
    @inlinable @inline(__always)
    public mutating func append(maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + maximum > storage.count { grow(toFit: maximum) }
        let start = count
        let added = storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
        precondition(added >= 0 && added <= maximum, "wrote within the room asked for")
        written += added
    }

    @usableFromInline
    mutating func grow(toFit extra: Int) {
        let wanted = max(count + extra, storage.count * 2, 256)
        var larger = Self.room(wanted)
        if written > 0 {
            larger.withUnsafeMutableBufferPointer { to in
                storage.withUnsafeBufferPointer { from in to.baseAddress!.update(from: from.baseAddress!, count: written) }
            }
        }
        storage = larger
    }
}
