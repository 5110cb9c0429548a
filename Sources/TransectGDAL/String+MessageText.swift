/// Text from GDAL, tidied for messages.
extension String {
    /// One line: errors are printed on a single line of stderr.
    var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
