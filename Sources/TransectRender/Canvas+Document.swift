import CCairo

/// Where a document canvas's bytes go as cairo writes them: memory, handed to the writer when
/// the document is finished (the CLI writes them through its all-or-nothing transaction).
final class DocumentSink {
    var bytes: [UInt8] = []

    /// cairo's write callback: `closure` is the sink (unretained; the canvas owns it).
    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<DocumentSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}

/// cairo's SVG surface names the groups and images it defines by process-wide counters
/// (`id="surface12"`, `xlink:href="#image15"`): the same figure drawn after another one in the
/// same process (`render --scenes`) would get other numbers. These renumber them from 1 in
/// order of first appearance, definitions and references alike.
enum SVGIdentifiers {
    /// The prefixes cairo numbers from a process-wide counter.
    static let prefixes: [[UInt8]] = [Array("surface".utf8), Array("image".utf8), Array("source".utf8)]

    static func renumbered(_ svg: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(svg.count)
        var numbers: [[UInt8]: Int] = [:]
        var i = 0
        let idOpen = Array("id=\"".utf8)
        while i < svg.count {
            // An identifier starts after `id="` or `#`.
            var start: Int?
            if svg[i] == UInt8(ascii: "#") {
                start = i + 1
            } else if svg[i] == UInt8(ascii: "i"), i + idOpen.count <= svg.count, Array(svg[i..<i + idOpen.count]) == idOpen {
                start = i + idOpen.count
            }
            guard let s = start,
                let prefix = prefixes.first(where: { s + $0.count < svg.count && Array(svg[s..<s + $0.count]) == $0 }),
                isDigit(svg[s + prefix.count])
            else {
                out.append(svg[i])
                i += 1
                continue
            }
            var end = s + prefix.count
            while end < svg.count && isDigit(svg[end]) { end += 1 }
            // `surface12-3` or `image7x` are not cairo's counters: leave them.
            if end < svg.count, svg[end] != UInt8(ascii: "\""), svg[end] != UInt8(ascii: ")") {
                out.append(contentsOf: svg[i..<end])
                i = end
                continue
            }
            let digits = Array(svg[(s + prefix.count)..<end])
            let number = numbers[digits] ?? (numbers.count + 1)
            numbers[digits] = number
            out.append(contentsOf: svg[i..<s])
            out.append(contentsOf: prefix)
            out.append(contentsOf: Array(String(number).utf8))
            i = end
        }
        return out
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
