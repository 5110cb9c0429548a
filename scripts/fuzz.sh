#!/usr/bin/env bash
# Fuzzes the file readers of TransectFormats with libFuzzer, as the Swift toolchain ships it.
#
#   make fuzz SECONDS=60                  every harness for 60 s each (the default), one after another
#   scripts/fuzz.sh [SECONDS] [HARNESS…]  the same, or only the harnesses named
#
# What it does, all under .build/fuzz/ (never committed):
#   - compiles TransectSupport, TransectGeodesy, TransectAnalysis, TransectFormatsBase and
#     TransectFormats (what the readers import) from Sources/ with `swiftc -sanitize=fuzzer,address`
#     into static libraries (modules/, lib/), only when a source is newer than the library, and
#     TransectSupport's one C file (Sources/CSHA256) with clang into lib/libCSHA256.a;
#   - compiles each harness, Fuzz/<harness>.swift plus Fuzz/Support/*.swift, into bin/<harness>;
#   - copies the committed seeds Tests/Hostile/<harness>/ into the working corpus corpus/<harness>/
#     (which keeps what libFuzzer adds, from one run to the next), plus real files from
#     ../shared/data where they exist (never committed: they are not ours);
#   - runs each harness for SECONDS with -max_total_time, -rss_limit_mb=2048, -timeout=10 and
#     -print_final_stats=1 (and Fuzz/dict/<harness>.dict when there is one), log in logs/<harness>.log;
#   - prints the executions per harness (libFuzzer's stat::number_of_executed_units);
#   - keeps what a harness finds in crashes/<harness>/ (crash-*, timeout-*, oom-*, leak-*), and
#     exits 1 when any harness found something.
#
# A harness defines `LLVMFuzzerTestOneInput` with `@_cdecl`, passes the bytes to one reader, and
# swallows thrown errors (a `FormatError` is the right answer to bad bytes): only a trap, a
# crash, a sanitizer report, a timeout or running out of memory is a finding.
#
# Adding a harness: write Fuzz/<name>.swift (copy one of the others), add <name> to HARNESSES
# below, and put a few small seed files in Tests/Hostile/<name>/. A harness of a reader that
# lives in a command-line library (the manifest and journal harnesses) compiles that reader's
# source files into itself (harness_sources below) over TransectRaster and TransectCLIBase,
# which are built for fuzzing too (GDAL-free, and free of Foundation). Built by hand, a harness is:
#
#   F="-parse-as-library -swift-version 6 -package-name Transect -sanitize=fuzzer,address -O -g -I .build/fuzz/modules/CSHA256"
#   (.build/fuzz/modules/CSHA256/module.modulemap: module CSHA256 { header "<abs. path to sha256_hardware.h>" })
#   clang -O2 -fsanitize=address -I Sources/CSHA256/include -c Sources/CSHA256/sha256_hardware.c \
#          -o .build/fuzz/lib/sha256_hardware.o && ar rcs .build/fuzz/lib/libCSHA256.a .build/fuzz/lib/sha256_hardware.o
#   for M in TransectSupport TransectGeodesy TransectAnalysis; do
#     swiftc $F -module-name $M -I .build/fuzz/modules -emit-module -emit-module-path .build/fuzz/modules/$M.swiftmodule \
#            -emit-library -static -o .build/fuzz/lib/lib$M.a Sources/$M/*.swift
#   done
#   swiftc $F -module-name TransectFormatsBase -I .build/fuzz/modules -emit-module \
#          -emit-module-path .build/fuzz/modules/TransectFormatsBase.swiftmodule \
#          -emit-library -static -o .build/fuzz/lib/libTransectFormatsBase.a Sources/TransectFormatsBase/*.swift
#   swiftc $F -module-name TransectFormats -I .build/fuzz/modules -emit-module \
#          -emit-module-path .build/fuzz/modules/TransectFormats.swiftmodule \
#          -emit-library -static -o .build/fuzz/lib/libTransectFormats.a Sources/TransectFormats/*.swift
#   swiftc $F -module-name Fuzz_<name> -I .build/fuzz/modules -L .build/fuzz/lib -lTransectFormats -lTransectFormatsBase \
#          -lTransectAnalysis -lTransectGeodesy -lTransectSupport -lCSHA256 Fuzz/Support/*.swift Fuzz/<name>.swift -o .build/fuzz/bin/<name>
#   .build/fuzz/bin/<name> -max_total_time=60 -print_final_stats=1 .build/fuzz/corpus/<name>
#
# Environment: SWIFTC (default swiftc), FUZZ_NICE (default 10: fuzzing is background work and
# yields the processor to anything else), FUZZ_LEAKS=1 to turn leak detection back on (see below),
# FUZZ_KEEP_GOING=1 to go on past a finding (libFuzzer's -fork=1 with -ignore_crashes, -ignore_ooms
# and -ignore_timeouts: each finding is still kept, and the run still fails), for a harness whose
# first known bug would otherwise end every run within seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

HARNESSES=(gpx geojson esri csvtrack places scene coordinates pairs scenelist manifest journal)

# Sources of the command-line libraries a harness compiles into itself: the readers it fuzzes.
harness_sources() {
    case "$1" in
        manifest | journal)
            echo Sources/TransectCLIMeasure/ShardManifest.swift Sources/TransectCLI/SceneShardManifest.swift \
                Sources/TransectCLI/SceneShardJournal.swift ;;
    esac
}

# Real files from ../shared/data that make good extra seeds, added to the working corpus only.
extra_seeds() {
    case "$1" in
        gpx) ls ../shared/data/gpx/*.gpx ;;
        esri) ls ../shared/data/location_history_sample.json ;;
        places) ls ../shared/data/landmarks.csv ;;
    esac 2>/dev/null || true
}

run_seconds=${1:-60}
[[ $run_seconds =~ ^[1-9][0-9]*$ ]] || { echo "Error: SECONDS must be a whole number above 0, not '$run_seconds'" >&2; exit 2; }
shift || true
if (($#)); then
    for h in "$@"; do
        [[ " ${HARNESSES[*]} " == *" $h "* ]] || { echo "Error: no harness '$h' (there are: ${HARNESSES[*]})" >&2; exit 2; }
    done
    HARNESSES=("$@")
fi

SWIFTC=${SWIFTC:-swiftc}
NICE=(nice -n "${FUZZ_NICE:-10}")
BUILD=.build/fuzz
# TransectSupport imports CSHA256 (one C file): a module map for it (SwiftPM makes its own) is
# written under modules/CSHA256, its object built with the toolchain's clang into libCSHA256.a.
# -package-name: TransectFormatsBase declares package API for the readers that stay in TransectFormats.
FLAGS=(-parse-as-library -swift-version 6 -package-name Transect -sanitize=fuzzer,address -O -g -I .build/fuzz/modules/CSHA256)
CLANG=${CLANG:-$(dirname "$(command -v "$SWIFTC")")/clang}
mkdir -p "$BUILD"/{modules/CSHA256,lib,bin,logs,corpus,crashes}
printf 'module CSHA256 {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CSHA256/include/sha256_hardware.h" \
    > "$BUILD/modules/CSHA256/module.modulemap"

# The linker warns about every sanitizer helper it cannot export; nothing to act on.
quiet() { "$@" 2> >(grep -v "Cannot export local symbol" >&2); }

# True when $1 is missing or older than any of the other files (or the compiler and flags stamp).
stale() {
    local target=$1; shift
    [[ -e $target ]] || return 0
    local f
    for f in "$@" "$BUILD/flags"; do [[ $f -nt $target ]] && return 0; done
    return 1
}

# A change of compiler or flags rebuilds everything.
stamp="$("$SWIFTC" --version 2>&1 | head -1) ${FLAGS[*]}"
[[ -e $BUILD/flags && $(cat "$BUILD/flags") == "$stamp" ]] || echo "$stamp" > "$BUILD/flags"

build_module() {
    local name=$1; shift
    local sources=(Sources/"$name"/*.swift)
    if stale "$BUILD/lib/lib$name.a" "${sources[@]}" "$@"; then
        echo "Building $name for fuzzing"
        quiet "${NICE[@]}" "$SWIFTC" "${FLAGS[@]}" -module-name "$name" -I "$BUILD/modules" \
            -emit-module -emit-module-path "$BUILD/modules/$name.swiftmodule" \
            -emit-library -static -o "$BUILD/lib/lib$name.a" "${sources[@]}"
    fi
}
if stale "$BUILD/lib/libCSHA256.a" Sources/CSHA256/*.c Sources/CSHA256/include/*; then
    echo "Building CSHA256 for fuzzing"
    "${NICE[@]}" "$CLANG" -O2 -g -fsanitize=address -I Sources/CSHA256/include -c Sources/CSHA256/sha256_hardware.c \
        -o "$BUILD/lib/sha256_hardware.o"
    rm -f "$BUILD/lib/libCSHA256.a"
    ar rcs "$BUILD/lib/libCSHA256.a" "$BUILD/lib/sha256_hardware.o"
fi
build_module TransectSupport "$BUILD/lib/libCSHA256.a"
build_module TransectGeodesy "$BUILD/lib/libTransectSupport.a"
build_module TransectAnalysis "$BUILD/lib/libTransectGeodesy.a"
build_module TransectFormatsBase "$BUILD/lib/libTransectAnalysis.a"
build_module TransectFormats "$BUILD/lib/libTransectFormatsBase.a"
build_module TransectRaster "$BUILD/lib/libTransectGeodesy.a"
build_module TransectCLIBase "$BUILD/lib/libTransectRaster.a" "$BUILD/lib/libTransectAnalysis.a"

support=(Fuzz/Support/*.swift)
for h in "${HARNESSES[@]}"; do
    read -r -a extra <<< "$(harness_sources "$h")"
    if stale "$BUILD/bin/$h" "Fuzz/$h.swift" "${support[@]}" "${extra[@]}" "$BUILD/lib/libTransectAnalysis.a" \
        "$BUILD/lib/libTransectFormatsBase.a" "$BUILD/lib/libTransectFormats.a" "$BUILD/lib/libTransectCLIBase.a"; then
        echo "Building harness $h"
        quiet "${NICE[@]}" "$SWIFTC" "${FLAGS[@]}" -module-name "Fuzz_$h" -I "$BUILD/modules" \
            -L "$BUILD/lib" -lTransectCLIBase -lTransectRaster -lTransectFormats -lTransectFormatsBase -lTransectAnalysis \
            -lTransectGeodesy -lTransectSupport -lCSHA256 "${support[@]}" "${extra[@]}" "Fuzz/$h.swift" -o "$BUILD/bin/$h"
    fi
done

# Swift's own backtracer would race libFuzzer's crash handler (and may wait on a terminal);
# libFuzzer and ASan print the stack. Symbolize it with the toolchain's symbolizer.
export SWIFT_BACKTRACE=enable=no
symbolizer="$(dirname "$(command -v "$SWIFTC")")/llvm-symbolizer"
[[ -x $symbolizer ]] && export ASAN_SYMBOLIZER_PATH="$symbolizer"
# Leak detection is off by default, both per input (-detect_leaks) and at exit (ASan's
# detect_leaks): FoundationXML leaks a CFError's string for every malformed XML document (its
# libxml2 error callback, _structuredErrorFunc → _CFErrorCreateFromXMLInterface, never releases
# it), so nearly every gpx input "leaks", and LeakSanitizer then scans the whole heap after each
# one: about 17 times fewer executions (36 against 619 a second in one 20 s gpx run). FUZZ_LEAKS=1 turns both checks on, with that Foundation
# leak suppressed (Fuzz/lsan.supp), to look for leaks of our own.
leaks=0; [[ ${FUZZ_LEAKS:-0} == 1 ]] && leaks=1
export ASAN_OPTIONS="detect_leaks=$leaks${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

keep_going=()
[[ ${FUZZ_KEEP_GOING:-0} == 1 ]] && keep_going=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)

failed=()
summary=()
for h in "${HARNESSES[@]}"; do
    corpus="$BUILD/corpus/$h" crashes="$BUILD/crashes/$h" log="$BUILD/logs/$h.log"
    mkdir -p "$corpus" "$crashes"
    [[ -d Tests/Hostile/$h ]] && cp -u Tests/Hostile/"$h"/* "$corpus"/ 2>/dev/null || true
    while read -r seed; do [[ -n $seed ]] && cp -n "$seed" "$corpus"/; done < <(extra_seeds "$h")
    dict=()
    [[ -f Fuzz/dict/$h.dict ]] && dict=(-dict="Fuzz/dict/$h.dict")
    before=$(ls "$crashes" | wc -l)
    echo "Fuzzing $h for ${run_seconds}s (log: $log)"
    status=0
    "${NICE[@]}" "$BUILD/bin/$h" -max_total_time="$run_seconds" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -detect_leaks=$leaks -artifact_prefix="$crashes/" "${dict[@]}" "${keep_going[@]}" "$corpus" \
        > "$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # In fork mode there are no final stats: the last "#N: cov: …" status line has the count.
    [[ -n $runs ]] || runs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -1)
    new=$(( $(ls "$crashes" | wc -l) - before ))
    found=$(ls -t "$crashes" | head -n $new | sed "s|^|$crashes/|" | head -1)
    ((new > 1)) && found+=" (and $((new - 1)) more)"
    # Scratch directories of harness processes that died without cleaning up (a crash, or the
    # children of fork mode): /dev/shm/transect-fuzz-<harness>-<pid> whose process is gone.
    for d in /dev/shm/transect-fuzz-"$h"-*; do
        [[ -d $d ]] && ! kill -0 "${d##*-}" 2>/dev/null && rm -rf "$d"
    done
    # Fork mode exits 0 at the time limit even after ignored crashes: new artifacts count too.
    if ((status != 0 || new > 0)); then
        failed+=("$h")
        summary+=("$(printf '%-10s %12s  FOUND (exit %d) %s' "$h" "${runs:-?}" "$status" "${found:-see $log}")")
        grep -m1 -E "^(SUMMARY|==[0-9]+==)" "$log" >&2 || true
    else
        summary+=("$(printf '%-10s %12s  ok' "$h" "${runs:-?}")")
    fi
done

echo
printf '%-10s %12s  %s\n' harness executions result
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
    echo "Findings kept in $BUILD/crashes/<harness>/; reproduce with $BUILD/bin/<harness> FILE" >&2
    exit 1
fi
