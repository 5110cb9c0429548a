#!/usr/bin/env bash
# make check: what CI runs besides `make test`.
#   1. the release build with every Swift warning an error;
#   2. `swift format lint` against .swift-format (the tree stays formatted);
#   3. the demo rendered twice into two folders, compared byte for byte (figures and text).
# The committed renders/ are compared too, but only reported: another cairo or freetype
# version may legitimately draw other bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

echo "== release build, warnings as errors"
$SWIFT build -c release -Xswiftc -warnings-as-errors

echo "== swift format lint"
$SWIFT format lint --strict --recursive --parallel Sources Tests Fuzz Package.swift

echo "== the demo, twice"
T=$($SWIFT build -c release -Xswiftc -warnings-as-errors --show-bin-path)/transect
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
