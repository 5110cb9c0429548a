#!/usr/bin/env bash
# The same behaviour before and after a change that only moves code: builds REV (default HEAD)
# and the working tree in release, runs every line of scripts/same-behaviour/cases.txt with each
# build in the same empty directory, and compares stdout, stderr, exit codes and the files left.
#   scripts/same-behaviour.sh [REV]
# BEFORE_BIN=DIR takes REV's launcher and libraries from DIR instead of building them.
# Exit 0 when every case agrees; the differences otherwise (the runs stay in .build/same-behaviour).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
REV=${1:-HEAD}
SHARED=$(cd ../shared/data 2>/dev/null && pwd) || { echo "same-behaviour: ../shared/data is absent" >&2; exit 2; }
WORK=$REPO/.build/same-behaviour
CASES=$REPO/scripts/same-behaviour/cases.txt
FLAGS=$(./scripts/target-cpu.sh --flags baseline)

# Builds the launcher and its two libraries from a source tree into a folder of their own.
build() { # build SOURCE_DIR SCRATCH DEST
  # The measure library's product was TransectMeasure (libTransectMeasure.so) before it took its
  # target's name; a revision from before the rename builds the old one.
  local measure=TransectCLIMeasure
  grep -q '"TransectMeasure"' "$1/Package.swift" && measure=TransectMeasure
  for product in transect TransectCLI "$measure"; do
    # shellcheck disable=SC2086
    (cd "$1" && swift build -c release --scratch-path "$2" --product "$product" $FLAGS >/dev/null)
  done
  rm -rf "$3" && mkdir -p "$3"
  cp "$2"/release/transect "$2"/release/lib*.so "$3"/
}

# Runs every case with the launcher in $1 and keeps what each gave in $2/NNN/.
run_cases() { # run_cases BIN_DIR RESULTS
  rm -rf "$2" && mkdir -p "$2"
  local n=0 line
  while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    n=$((n + 1))
    local case_dir
    case_dir=$(printf '%s/%03d' "$2" "$n")
    rm -rf "$WORK/run" && mkdir -p "$WORK/run" "$case_dir"
    set +e
    (cd "$WORK/run" && T="$1/transect" R="$REPO" S="$SHARED" SOURCE_DATE_EPOCH=0 bash -c "$line" \
      >"$case_dir/stdout" 2>"$case_dir/stderr" </dev/null)
    echo $? >"$case_dir/exit"
    set -e
    echo "$line" >"$case_dir/command"
    mv "$WORK/run" "$case_dir/files"
  done <"$CASES"
  echo "$n"
}

mkdir -p "$WORK"
if [ -n "${BEFORE_BIN:-}" ]; then
  rm -rf "$WORK/before-bin" && cp -r "$BEFORE_BIN" "$WORK/before-bin"
else
  git worktree remove --force "$WORK/before-src" 2>/dev/null || true
  rm -rf "$WORK/before-src"
  git worktree add --detach -q "$WORK/before-src" "$REV"
  echo "== building $REV"
  build "$WORK/before-src" "$WORK/before-build" "$WORK/before-bin"
  git worktree remove --force "$WORK/before-src"
fi
echo "== building the working tree"
build "$REPO" "$REPO/.build" "$WORK/after-bin"
count=$(run_cases "$WORK/before-bin" "$WORK/before")
run_cases "$WORK/after-bin" "$WORK/after" >/dev/null
if diff -r "$WORK/before" "$WORK/after"; then
  echo "same-behaviour: all $count cases give the same stdout, stderr, exit code and files on $REV and the working tree."
else
  echo "same-behaviour: the cases above differ between $REV and the working tree." >&2
  exit 1
fi
