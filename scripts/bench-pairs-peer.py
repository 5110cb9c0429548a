#!/usr/bin/env python3
"""The peer of `transect measure --pairs` in `make bench`: the pipeline a user would write.

    bench-pairs-peer.py DEM PAIRS.csv OUT.csv

Reads the pairs (from_lon, from_lat, to_lon, to_lat) with pandas, samples both heights
bilinearly from the DEM (read whole with GDAL's Python bindings, or rasterio) through a pyproj
transformer and scipy's map_coordinates, measures the geodesic with pyproj's Geod.inv and the
direct distance in ECEF, and writes the same columns as Transect with pandas' to_csv.
"""
import sys

import numpy as np
import pandas as pd
from pyproj import Geod, Transformer
from scipy.ndimage import map_coordinates

from bench_peer_dem import read_dem


def main():
    dem, pairs, out = sys.argv[1:4]
    z, gt, crs = read_dem(dem)
    df = pd.read_csv(pairs)
    to_dem = Transformer.from_crs("EPSG:4326", crs, always_xy=True)

    def heights(lon, lat):
        x, y = to_dem.transform(lon, lat)
        column = (x - gt[0]) / gt[1] - 0.5
        row = (y - gt[3]) / gt[5] - 0.5
        return map_coordinates(z, [row, column], order=1, mode="constant", cval=np.nan)

    lon1, lat1 = df["from_lon"].to_numpy(), df["from_lat"].to_numpy()
    lon2, lat2 = df["to_lon"].to_numpy(), df["to_lat"].to_numpy()
    h1 = heights(lon1, lat1)
    h2 = heights(lon2, lat2)
    azimuth, _, horizontal = Geod(ellps="WGS84").inv(lon1, lat1, lon2, lat2)
    to_ecef = Transformer.from_crs("EPSG:4979", "EPSG:4978", always_xy=True)
    x1, y1, z1 = to_ecef.transform(lon1, lat1, h1)
    x2, y2, z2 = to_ecef.transform(lon2, lat2, h2)
    direct = np.sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2 + (z2 - z1) ** 2)
    result = pd.DataFrame(
        {
            "from_lon": lon1,
            "from_lat": lat1,
            "from_elevation_m": h1,
            "to_lon": lon2,
            "to_lat": lat2,
            "to_elevation_m": h2,
            "horizontal_m": horizontal,
            "vertical_m": h2 - h1,
            "direct_m": direct,
            "azimuth_deg": azimuth,
            "error": "",
        }
    )
    result.to_csv(out, index=False, float_format="%.3f")


if __name__ == "__main__":
    main()
