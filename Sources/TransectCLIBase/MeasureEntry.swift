/// The contract between the launcher and `libTransectCLIMeasure.so`, which both link this module
/// for: what the library's entry, `transect_measure_main`, returns for a command line it does not
/// run (neither a measure nor a viewshed of observers given on the command line), having done
/// nothing, so that the launcher hands it to the full command line.
package enum MeasureEntry {
    /// No exit code (those are 0…255): -1.
    package static let notHandled: Int32 = -1
}
