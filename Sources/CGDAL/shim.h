#ifndef TRANSECT_CGDAL_SHIM_H
#define TRANSECT_CGDAL_SHIM_H
#include <gdal.h>
#include <gdal_utils.h>
#include <gdalwarper.h>
#include <ogr_srs_api.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <cpl_minixml.h>
#endif
