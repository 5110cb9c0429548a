/// The contract between the launcher and `libTransectCLIMeasure.so`, which both link this module
/// for: what the library's entry, `transect_measure_main`, returns for a command line that is
/// not a measure, having done nothing, so that the launcher hands it to the full command line.
package enum MeasureEntry {
    /// No exit code (those are 0…255): -1.
    package static let notMeasure: Int32 = -1
}
