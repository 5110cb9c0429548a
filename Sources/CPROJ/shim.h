#ifndef TRANSECT_CPROJ_SHIM_H
#define TRANSECT_CPROJ_SHIM_H
#include <proj.h>
#include <geodesic.h>
#endif
