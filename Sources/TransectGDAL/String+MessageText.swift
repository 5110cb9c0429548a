/// Text from GDAL and the user, tidied for messages and comparisons.
extension String {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// One line: errors are printed on a single line of stderr.
    var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
