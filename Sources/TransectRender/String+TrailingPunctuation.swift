extension String {
    /// Without the commas, colons and spaces a shortened title would otherwise end in.
    var trimmingTrailingPunctuation: String {
        var s = self
        while let last = s.last, [",", ":", ";", " ", "-", "–", "—"].contains(last) { s.removeLast() }
        return s
    }
}
