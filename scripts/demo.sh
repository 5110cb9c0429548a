#!/usr/bin/env bash
# make demo: the main job on the embedded default surface (ETOPO5), then on the real
# Yosemite DEM when ../shared/data is beside the project.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-.build/release/transect}
SHARED=../shared/data

echo "== The default surface"
"$T" info
echo
echo "== Everest summit to Kathmandu on the default surface (5' cells average the summit down)"
"$T" measure --from 86.925278,27.988056 --to 85.324,27.7172 2>/dev/null
echo
echo "== Mont Blanc to Chamonix, heights given, imperial"
"$T" measure --from 6.865,45.832778,4806 --to 6.8694,45.9237,1035 --units imperial
echo
echo "== Batch of routes (data/routes.csv) on the default surface"
"$T" measure --pairs data/routes.csv 2>/dev/null
if [ -f "$SHARED/yosemite_valley_ned1as.tif" ]; then
  echo
  echo "== Half Dome to Glacier Point on the USGS 1\" NED (Yosemite Valley)"
  "$T" measure --dem "$SHARED/yosemite_valley_ned1as.tif" --from -119.5329397,37.7460363 --to -119.573056,37.730833
  "$T" measure --dem "$SHARED/yosemite_valley_ned1as.tif" --from -119.5329397,37.7460363 --to -119.573056,37.730833 --geoid egm96 --format json
fi
