import Foundation

/// The bytes of an XML document as an `InputStream` for `XMLParser`: pulled chunk by chunk from
/// a source and passed through an `XMLScreen`. A screen error ends the stream (`read` returns
/// −1) and is kept in `error`; `stop()` ends it early once the parser has failed.
final class ScreenedXMLStream: InputStream {
    private var screen: XMLScreen
    private let next: () throws(FormatError) -> [UInt8]?
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var ended = false
    private(set) var error: FormatError?
    /// True once the whole input passed the screen.
    private(set) var reachedEnd = false
    /// How many (screened, UTF-8) bytes `read` has handed to the parser so far.
    private(set) var deliveredBytes = 0

    init(path: String, next: @escaping () throws(FormatError) -> [UInt8]?) {
        screen = XMLScreen(path: path)
        self.next = next
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !ended }
    override var streamStatus: Stream.Status { error != nil ? .error : ended ? .atEnd : .open }
    /// Asked for by `XMLParser` when `read` returns −1 (the base class's would trap: this
    /// stream has no CoreFoundation stream behind it).
    override var streamError: Error? { error.map { NSError(domain: "TransectFormats", code: 1, userInfo: [NSLocalizedDescriptionKey: $0.message]) } }

    func stop() { ended = true }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        while pendingStart == pending.count {
            guard !ended else { return error == nil ? 0 : -1 }
            do {
                if let chunk = try next() {
                    pending = try chunk.withUnsafeBufferPointer { (b) throws(FormatError) -> [UInt8] in try screen.feed(b) }
                } else {
                    pending = try screen.finish()
                    ended = true
                    reachedEnd = true
                }
                pendingStart = 0
            } catch {
                self.error = error
                ended = true
                return -1
            }
        }
        let n = min(len, pending.count - pendingStart)
        pending.withUnsafeBufferPointer { b in
            buffer.update(from: b.baseAddress! + pendingStart, count: n)
        }
        pendingStart += n
        deliveredBytes += n
        return n
    }
}
