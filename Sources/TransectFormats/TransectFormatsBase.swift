// The Foundation-free half of the formats (the pairs CSV, CSV lines, line and chunk readers, the
// strict JSON parser, FormatError), seen by every file here and every importer of this module as
// if it were declared in this module.
@_exported import TransectFormatsBase
