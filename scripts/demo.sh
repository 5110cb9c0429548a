#!/usr/bin/env bash
# make demo: the main job on the embedded default surface (ETOPO5), then the showcase figures
# in renders/ from the real Yosemite DEM when ../shared/data is beside the project (from the
# default surface otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-.build/release/transect}
SHARED=../shared/data
mkdir -p renders

echo "== The default surface"
"$T" info
echo
echo "== Everest summit to Kathmandu on the default surface (5' cells average the summit down)"
"$T" measure --from 86.925278,27.988056 --to 85.324,27.7172
echo
echo "== Mont Blanc to Chamonix, heights given, imperial"
"$T" measure --from 6.865,45.832778,4806 --to 6.8694,45.9237,1035 --units imperial
echo
echo "== Batch of routes (data/routes.csv) on the default surface"
"$T" measure --pairs data/routes.csv
echo
if [ -f "$SHARED/yosemite_valley_ned1as.tif" ]; then
  echo "== Half Dome to Glacier Point (the overlook's DEM cell) on the USGS 1\" NED (Yosemite Valley)"
  "$T" measure --dem "$SHARED/yosemite_valley_ned1as.tif" --from -119.5329397,37.7460363 --to -119.573611,37.729722
  "$T" profile --dem "$SHARED/yosemite_valley_ned1as.tif" --from -119.5329397,37.7460363 --to -119.573611,37.729722 \
    --chart renders/half_dome_glacier_point_profile.png --title "Half Dome → Glacier Point"
  echo "== For a report: the chart and the map as PDF at a print size (vectors over the embedded basemap)"
  "$T" profile --dem "$SHARED/yosemite_valley_ned1as.tif" --from -119.5329397,37.7460363 --to -119.573611,37.729722 \
    --chart renders/half_dome_glacier_point_profile.pdf --chart-size 160x80mm --title "Half Dome → Glacier Point" > /dev/null
  "$T" render --scene data/yosemite.scene.json
  "$T" render --scene data/yosemite.scene.json --size 160x100mm --out renders/yosemite_valley.pdf
  "$T" render --scene data/yosemite.scene.json --basemap tint --multidirectional --out renders/yosemite_valley_tint.png
  echo "== The same measurement in perspective: the camera frames it from its side; then an orbit around it"
  VIEW=(--dem "$SHARED/yosemite_valley_ned1as.tif" --from -119.5329397,37.7460363 --to -119.573611,37.729722 --basemap tint)
  "$T" view "${VIEW[@]}" --places data/yosemite_places.csv --out renders/half_dome_glacier_point_view.png
  rm -rf renders/half_dome_glacier_point_orbit
  "$T" view "${VIEW[@]}" --size 800x500 --orbit 8 --frames renders/half_dome_glacier_point_orbit
  echo "== What Glacier Point sees: the viewshed (exact sight lines), on the map and draped over the terrain"
  "$T" viewshed --dem "$SHARED/yosemite_valley_ned1as.tif" --observer -119.573611,37.729722 --observer-height 2 \
    -o renders/glacier_point_viewshed.tif
  "$T" render --dem "$SHARED/yosemite_valley_ned1as.tif" --viewshed renders/glacier_point_viewshed.tif \
    --places data/yosemite_places.csv --title "Seen from Glacier Point" --out renders/glacier_point_viewshed.png
  "$T" view "${VIEW[@]}" --viewshed renders/glacier_point_viewshed.tif --out renders/glacier_point_viewshed_view.png
else
  echo "== ../shared/data is absent: the same scene on the default surface"
  "$T" measure --from -119.5329397,37.7460363 --to -119.573611,37.729722
  "$T" profile --from -119.5329397,37.7460363 --to -119.573611,37.729722 --step 500 \
    --chart renders/half_dome_glacier_point_profile.png --title "Half Dome → Glacier Point (ETOPO5)"
  "$T" render --scene data/yosemite.scene.json --no-dem
fi

echo
echo "== Location history: the sample route (Esri JSON, Web Mercator), densified to 50 m, one fix per vertex"
"$T" track --in data/location_history_sample.json --stats
FIXES=$(mktemp --suffix=.csv)
"$T" track --in data/location_history_sample.json --simulate --out "$FIXES"
head -4 "$FIXES"
rm -f "$FIXES"
"$T" render --track data/location_history_sample.json --title "Location history: sample route (simulated fixes)" \
  --out renders/location_history_sample.png
echo
echo "== A simulated hike: Happy Isles → Vernal Fall → Nevada Fall → Little Yosemite Valley → Half Dome"
ROUTE=(--track data/half_dome_route.geojson --places data/half_dome_route_places.csv
       --title "Happy Isles → Half Dome (simulated route)")
rm -rf renders/half_dome_route_frames
if [ -f "$SHARED/yosemite_valley_ned1as.tif" ]; then
  DEM=(--dem "$SHARED/yosemite_valley_ned1as.tif")
  "$T" track "${DEM[@]}" --in data/half_dome_route.geojson --stats
  "$T" render "${DEM[@]}" "${ROUTE[@]}" --basemap light-gray --size 1600x1100 --out renders/half_dome_route.png
  "$T" render "${DEM[@]}" "${ROUTE[@]}" --basemap light-gray --size 800x550 --frames renders/half_dome_route_frames --every 25
  "$T" profile "${DEM[@]}" --track data/half_dome_route.geojson --chart renders/half_dome_route_profile.png \
    --title "Happy Isles → Half Dome (simulated route)" > /dev/null
else
  "$T" track --in data/half_dome_route.geojson --stats --elevation dem --dem /usr/share/ferret-vis/data/etopo5.cdf
  "$T" render "${ROUTE[@]}" --size 1600x1100 --out renders/half_dome_route.png
  "$T" render "${ROUTE[@]}" --size 800x550 --frames renders/half_dome_route_frames --every 25
  "$T" profile --track data/half_dome_route.geojson --elevations dem --step 200 --chart renders/half_dome_route_profile.png \
    --title "Happy Isles → Half Dome (simulated route, ETOPO5)" > /dev/null
fi
echo
echo "Figures: $(ls renders/*.png renders/*.pdf renders/*.tif 2>/dev/null | tr '\n' ' ') and renders/half_dome_route_frames/, renders/half_dome_glacier_point_orbit/"
