// The GDAL-free half of the command line (the option parser, the options, measure's output),
// seen by every file here, and by every importer of this module, as if it were declared here.
@_exported import TransectCLIBase
import TransectSupport
