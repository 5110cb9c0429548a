extension String {
    /// The text with every `target` character replaced by `replacement`:
    /// `"out_of_order".replacingAll("_", with: " ")` is `out of order`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
