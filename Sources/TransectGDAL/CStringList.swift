import CGDAL

/// Calls `body` with a NULL-terminated C string list (`char **`) built from `strings`.
func withCStringList<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) throws -> R) rethrows -> R {
    var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
    for s in strings { list = CSLAddString(list, s) }
    defer { CSLDestroy(list) }
    return try body(list)
}

/// The same list as `const char * const *`, for functions that promise not to change it.
func constList(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafePointer<UnsafePointer<CChar>?>? {
    list.map { UnsafePointer<UnsafePointer<CChar>?>(OpaquePointer($0)) }
}
