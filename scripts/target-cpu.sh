#!/usr/bin/env bash
# The CPU the release build targets, as the Makefile and scripts/check.sh use it.
#   target-cpu.sh              prints x86-64-v3 when this machine is x86_64 and its /proc/cpuinfo
#                              lists the whole x86-64-v3 feature set, baseline otherwise;
#   target-cpu.sh --flags CPU  prints the `swift build` flags for CPU (x86-64-v3 or baseline).
#
# This toolchain's swiftc refuses `-target-cpu x86-64-v3` and `-Xcc -march=x86-64-v3` (its clang
# importer knows only named CPUs), so x86-64-v3 is spelled as its features on top of the
# x86-64 baseline: the same -m flags reach the Swift code generator (through the clang importer)
# and the C target (CPNG).
#
# -ffp-contract=off: bit-identical results on both targets need every a*b+c to stay a multiply
# and an add, never one fused FMA (which rounds once). swiftc does not fuse on its own: the only
# vfmadd in the x86-64-v3 binary are the standard library's floating-point `stride`, an explicit
# `addingProduct` that the baseline build computes with libm's `fma`, rounded the same. clang
# fuses by default within an expression once FMA is available, so the C code is told not to, on
# both targets alike.
set -euo pipefail

# x86-64-v2 (pni is SSE3) and the v3 additions; cpuinfo says abm for LZCNT.
REQUIRED="pni ssse3 sse4_1 sse4_2 popcnt cx16 lahf_lm avx xsave avx2 fma bmi1 bmi2 movbe f16c abm"
V3_FLAGS="-Xcc -mavx2 -Xcc -mfma -Xcc -mbmi -Xcc -mbmi2 -Xcc -mlzcnt -Xcc -mmovbe -Xcc -mf16c"
V3_FLAGS+=" -Xcc -mpopcnt -Xcc -mcx16 -Xcc -msahf -Xcc -mxsave"
COMMON_FLAGS="-Xcc -ffp-contract=off"

detect() {
  [ "$(uname -m)" = x86_64 ] || { echo baseline; return; }
  local flags
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  for f in $REQUIRED; do
    case "$flags" in *" $f "*) ;; *) echo baseline; return ;; esac
  done
  echo x86-64-v3
}

case "${1:-}" in
  "") detect ;;
  --flags)
    case "${2:-}" in
      x86-64-v3) echo "$V3_FLAGS $COMMON_FLAGS" ;;
      baseline) echo "$COMMON_FLAGS" ;;
      *) echo "target-cpu.sh: unknown CPU target '${2:-}' (x86-64-v3 or baseline)" >&2; exit 2 ;;
    esac ;;
  *) echo "usage: target-cpu.sh [--flags x86-64-v3|baseline]" >&2; exit 2 ;;
esac
