// The GDAL-free half of the command line (the option parser, the options, measure's output),
// seen by every file here as if it were declared in this module.
@_exported import TransectCLIBase
