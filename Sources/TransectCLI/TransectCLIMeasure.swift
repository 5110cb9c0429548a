// measure and the machinery it shares with the other commands (and through it the GDAL-free half
// of the command line), seen by every file here as if it were declared in this module.
@_exported import TransectCLIMeasure
