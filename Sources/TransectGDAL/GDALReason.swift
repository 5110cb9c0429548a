/// GDAL's reason for a failure, tidied to be quoted once after our own words: GDAL names the
/// file again (`` `x.tif' not recognized … ``, `x.tif: x.tif:Cannot read TIFF header`, `(x.tif,
/// band 1: …)`), writes libtiff's "no row" as `row 4294967295, col 4294967295`, and ends with the
/// function that failed (`TIFFReadEncodedTile() failed.`) after naming it already.
///
/// ```swift
/// GDALReason.tidy("`/etc/hostname' not recognized as a supported file format.", path: "/etc/hostname")
/// // "not recognized as a supported file format."
/// ```
enum GDALReason {
    /// The most characters of a reason quoted; a longer one ends in "…".
    static let limit = 200

    /// `reason` without the file `path` named again, without libtiff's sentinel row and column,
    /// without a `NAME() failed.` whose NAME came earlier, on one line of at most ``limit``
    /// characters. A reason that would be left empty is returned as it was (shortened).
    static func tidy(_ reason: String, path: String) -> String {
        var text = reason
        if !path.isEmpty {
            for quoted in ["`\(path)'", "'\(path)'", "\"\(path)\""] { text = replacing(quoted + " ", "", in: replacing(quoted + ": ", "", in: text)) }
            for quoted in ["`\(path)'", "'\(path)'", "\"\(path)\""] { text = replacing(quoted, "", in: text) }
            text = replacing("(\(path), ", "(", in: text)
            // `x.tif: x.tif:Cannot …`: the name before a colon, as often as GDAL repeats it.
            for separator in [": ", ":"] { text = replacing(path + separator, "", in: text) }
        }
        // libtiff says "row 4294967295, col 4294967295" (UInt32's −1) for a tile with no row.
        for sentinel in ["4294967295", "18446744073709551615"] {
            text = replacing(" at row \(sentinel), col \(sentinel)", "", in: text)
            text = replacing("row \(sentinel), col \(sentinel)", "", in: text)
        }
        text = droppingRepeatedFailures(text)
        text = spacedAfterColons(text)
        text = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        text = String(text.drop { " :;,".contains($0) })
        if text.isEmpty { text = reason }
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// `text` with every `target` replaced by `replacement`.
    static func replacing(_ target: String, _ replacement: String, in text: String) -> String {
        guard !target.isEmpty else { return text }
        var out = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    /// Without `: NAME() failed.` (or `NAME() failed.` alone) where NAME was named before it.
    static func droppingRepeatedFailures(_ text: String) -> String {
        var result = text
        var searchFrom = result.startIndex
        while let marker = result[searchFrom...].firstRange(of: "() failed") {
            let nameStart =
                result[..<marker.lowerBound].lastIndex { !($0.isLetter || $0.isNumber || $0 == "_") }.map { result.index(after: $0) }
                ?? result.startIndex
            let name = result[nameStart..<marker.lowerBound]
            guard !name.isEmpty, result[..<nameStart].contains(name) else {
                searchFrom = marker.upperBound
                continue
            }
            var start = nameStart
            // The separator before it (": ", " ") goes with it.
            while start > result.startIndex, " :;,".contains(result[result.index(before: start)]) { start = result.index(before: start) }
            var end = marker.upperBound
            if end < result.endIndex, result[end] == "." { end = result.index(after: end) }
            result.removeSubrange(start..<end)
            searchFrom = start
        }
        return result
    }

    /// `TIFFReadEncodedTile:Read error` as `TIFFReadEncodedTile: Read error`: a colon between a
    /// word and a letter gets a space.
    static func spacedAfterColons(_ text: String) -> String {
        var out = ""
        var previous: Character?
        var iterator = text.makeIterator()
        var pending: Character? = iterator.next()
        while let c = pending {
            let next = iterator.next()
            out.append(c)
            if c == ":", let p = previous, p.isLetter || p == ")", let n = next, n.isLetter { out.append(" ") }
            previous = c
            pending = next
        }
        return out
    }
}
