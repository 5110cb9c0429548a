// CKernelHints is header-only (include/kernel_hints.h); a C target needs one source file.
#include "kernel_hints.h"
