"""What the bench's Python peers share: the DEM read whole, as a user's script would."""
import numpy as np


def read_dem(path):
    """The DEM's first band as float64 with no data as NaN, its geotransform and its CRS."""
    try:
        from osgeo import gdal

        gdal.UseExceptions()
        ds = gdal.Open(path)
        band = ds.GetRasterBand(1)
        z = band.ReadAsArray().astype(np.float64)
        nodata = band.GetNoDataValue()
        gt = ds.GetGeoTransform()
        crs = ds.GetProjection()
    except ImportError:
        import rasterio

        with rasterio.open(path) as ds:
            z = ds.read(1).astype(np.float64)
            nodata = ds.nodata
            a = ds.transform
            gt = (a.c, a.a, a.b, a.f, a.d, a.e)
            crs = ds.crs.to_wkt()
    if nodata is not None and not np.isnan(nodata):
        z[z == nodata] = np.nan
    return z, gt, crs
