import Foundation

// Extended across modules on purpose: `CSVLine` is TransectFormatsBase's, without Foundation
// (measure's library reads pairs with it); this trim is Foundation's white space, for the
// readers that already load Foundation.
extension CSVLine {
    /// `field` without surrounding white space (`field.trimmingCharacters(in: .whitespaces)`:
    /// the tab and Unicode's space separators), without Foundation's bridging when the field
    /// begins and ends with printable ASCII other than the space: that set holds none of those,
    /// so there is nothing to trim. Every number of a places or track file takes the short way.
    static func trimmed(_ field: String) -> String {
        let scalars = field.unicodeScalars
        if let first = scalars.first, let last = scalars.last, (0x21...0x7E).contains(first.value), (0x21...0x7E).contains(last.value) {
            return field
        }
        return field.trimmingCharacters(in: .whitespaces)
    }
}
