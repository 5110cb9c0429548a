#!/usr/bin/env bash
# make check: what CI runs besides `make test`.
#   1. the release build with every Swift warning an error;
#   2. `swift format lint` against .swift-format (the tree stays formatted);
#   3. the demo rendered twice into two folders, compared byte for byte (figures and text);
#   4. on a machine with the x86-64-v3 set (scripts/target-cpu.sh), a second release build for
#      x86-64-v3 in .build/x86-64-v3: its demo, a 200,000-pair batch and a 100,000-sample profile
#      on the Yosemite DEM must give the bytes the baseline build gives.
# The committed renders/ are compared too, but only reported: another cairo or freetype
# version may legitimately draw other bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

BASELINE_FLAGS=$(./scripts/target-cpu.sh --flags baseline)
echo "== release build, warnings as errors"
# shellcheck disable=SC2086 # the flags are words
$SWIFT build -c release -Xswiftc -warnings-as-errors $BASELINE_FLAGS

echo "== swift format lint"
$SWIFT format lint --strict --recursive --parallel Sources Tests Fuzz Package.swift

echo "== the demo, twice"
# shellcheck disable=SC2086
T=$($SWIFT build -c release -Xswiftc -warnings-as-errors $BASELINE_FLAGS --show-bin-path)/transect
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for run in 1 2; do
  # From an empty renders/ each time, so a figure a run fails to write cannot pass as the other's.
  find renders -type f -delete
  ./scripts/demo.sh "$T" > "$WORK/stdout.$run" 2> "$WORK/stderr.$run"
  mkdir -p "$WORK/renders.$run"
  cp -r renders/. "$WORK/renders.$run/"
done
diff -r "$WORK/renders.1" "$WORK/renders.2"
cmp "$WORK/stdout.1" "$WORK/stdout.2"
cmp "$WORK/stderr.1" "$WORK/stderr.2"
echo "The demo gave the same bytes twice ($(find "$WORK/renders.1" -type f | wc -l) files, $(wc -c < "$WORK/stdout.1") bytes of text)."
if git diff --quiet -- renders && [ -z "$(git status --porcelain -- renders)" ]; then
  echo "renders/ matches the committed figures."
else
  echo "note: renders/ differs from the committed figures (another cairo/freetype, or a change to commit):"
  git status --short -- renders | head -20
fi

if [ "$(./scripts/target-cpu.sh)" != x86-64-v3 ]; then
  echo "This machine lacks the x86-64-v3 set: the two CPU targets are not compared."
  exit 0
fi
echo "== the x86-64-v3 build against the baseline"
V3_BUILD=(-c release -Xswiftc -warnings-as-errors --scratch-path .build/x86-64-v3)
# The launcher and the libraries it loads: for measure, and for everything else.
for product in transect TransectCLIMeasure TransectCLICompare TransectCLI; do
  # shellcheck disable=SC2046
  $SWIFT build "${V3_BUILD[@]}" --product $product $(./scripts/target-cpu.sh --flags x86-64-v3)
done
# shellcheck disable=SC2046
V3=$($SWIFT build "${V3_BUILD[@]}" $(./scripts/target-cpu.sh --flags x86-64-v3) --show-bin-path)/transect
find renders -type f -delete
./scripts/demo.sh "$V3" > "$WORK/stdout.v3" 2> "$WORK/stderr.v3"
mkdir -p "$WORK/renders.v3"
cp -r renders/. "$WORK/renders.v3/"
diff -r "$WORK/renders.1" "$WORK/renders.v3"
cmp "$WORK/stdout.1" "$WORK/stdout.v3"
cmp "$WORK/stderr.1" "$WORK/stderr.v3"
echo "The x86-64-v3 demo gave the baseline's bytes."
DEM=../shared/data/yosemite_valley_ned1as.tif
if [ -f "$DEM" ]; then
  # 200,000 pairs over Yosemite Valley from a seeded generator.
  awk 'BEGIN { srand(20261129); print "id,from_lon,from_lat,to_lon,to_lat"
    for (i = 0; i < 200000; i++)
      printf "p%d,%.6f,%.6f,%.6f,%.6f\n", i, -119.66 + 0.26 * rand(), 37.68 + 0.12 * rand(),
        -119.66 + 0.26 * rand(), 37.68 + 0.12 * rand() }' > "$WORK/pairs.csv"
  for bin in "$T" "$V3"; do
    tag=$([ "$bin" = "$T" ] && echo baseline || echo v3)
    "$bin" measure --dem "$DEM" --pairs "$WORK/pairs.csv" -o "$WORK/pairs.$tag.csv"
    "$bin" profile --dem "$DEM" --from -119.5329397,37.7460363 --to -119.573611,37.729722 \
      --samples 100000 --format csv -o "$WORK/profile.$tag.csv"
  done
  cmp "$WORK/pairs.baseline.csv" "$WORK/pairs.v3.csv"
  cmp "$WORK/profile.baseline.csv" "$WORK/profile.v3.csv"
  echo "The x86-64-v3 batch ($(($(wc -l < "$WORK/pairs.v3.csv") - 1)) rows) and profile ($(($(wc -l < "$WORK/profile.v3.csv") - 1)) samples) match the baseline's bytes."
fi
