#!/usr/bin/env python3
"""The peer of `transect profile --samples N --format csv` in `make bench`: the pipeline a
user would write.

    bench-profile-peer.py DEM LON1,LAT1 LON2,LAT2 SAMPLES OUT.csv

Reads the DEM whole with GDAL's Python bindings (or rasterio), finds the geodesic from the
first point to the second with pyproj's Geod.inv and the SAMPLES positions evenly spaced along
it (both ends included) with Geod.fwd, samples them bilinearly with scipy's map_coordinates
(no-data cells left out and the weights of the others renormalised, a gap where they carry
less than half, as Transect does), and writes distance_m, lon, lat, elevation_m rounded to
6, 9, 9 and 6 decimals with pandas' to_csv.
"""
import sys

import numpy as np
import pandas as pd
from pyproj import Geod, Transformer
from scipy.ndimage import map_coordinates

from bench_peer_dem import read_dem


def main():
    dem, start, end, samples, out = sys.argv[1:6]
    lon1, lat1 = (float(v) for v in start.split(","))
    lon2, lat2 = (float(v) for v in end.split(","))
    n = int(samples)
    z, gt, crs = read_dem(dem)

    geod = Geod(ellps="WGS84")
    azimuth, _, length = geod.inv(lon1, lat1, lon2, lat2)
    distance = length * np.arange(n) / (n - 1)
    lon, lat, _ = geod.fwd(np.full(n, lon1), np.full(n, lat1), np.full(n, azimuth), distance)
    # The ends are the given points themselves.
    distance[-1] = length
    lon[0], lat[0], lon[-1], lat[-1] = lon1, lat1, lon2, lat2

    x, y = Transformer.from_crs("EPSG:4326", crs, always_xy=True).transform(lon, lat)
    column = (x - gt[0]) / gt[1] - 0.5
    row = (y - gt[3]) / gt[5] - 0.5
    valid = ~np.isnan(z)
    weight = map_coordinates(valid.astype(np.float64), [row, column], order=1, mode="constant", cval=0.0)
    total = map_coordinates(np.where(valid, z, 0.0), [row, column], order=1, mode="constant", cval=0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        elevation = np.where(weight >= 0.5, total / weight, np.nan)

    table = pd.DataFrame({"distance_m": distance, "lon": lon, "lat": lat, "elevation_m": elevation})
    table = table.round({"distance_m": 6, "lon": 9, "lat": 9, "elevation_m": 6})
    table.to_csv(out, index=False)


if __name__ == "__main__":
    main()
