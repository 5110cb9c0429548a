/// The contract between the launcher and `libTransectCLICompare.so`, which both link this module
/// for: what the library's entry, `transect_compare_main`, returns for a command line it leaves
/// to the full command line, having printed and written nothing.
package enum CompareEntry {
    /// No exit code (those are 0…255): -1.
    package static let notHandled: Int32 = -1
}
