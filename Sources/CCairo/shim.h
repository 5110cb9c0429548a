#ifndef TRANSECT_CCAIRO_SHIM_H
#define TRANSECT_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#endif
