#!/usr/bin/env bash
# Regenerate the figures and tables of docs/COMPARE.md from the committed
# results: measured runs (results/runs/*.csv) beside published figures
# (results/reference/*.csv). Needs a built clbench and gnuplot.
#
#   scripts/make_figures.sh                 # after cmake --build build
#   CB=/path/to/clbench RUNS=dir REFS=dir scripts/make_figures.sh
#
# Every device ran at its own default size and the papers used theirs, so the
# figures compare each device's best figure per kernel and type whatever the
# size and launch shape (--any-size --sweep none); the tables say the same.
set -euo pipefail
cd "$(dirname "$0")/.."
CB=${CB:-build/clbench}
RUNS=${RUNS:-results/runs}
REFS=${REFS:-results/reference}
OUT=${OUT:-docs/img}
[ -x "$CB" ] || { echo "make_figures: no clbench at '$CB' (build it, or set CB=)" >&2; exit 2; }
shopt -s nullglob
files=("$RUNS"/*.csv "$REFS"/*.csv)
[ ${#files[@]} -gt 0 ] || { echo "make_figures: no CSV under $RUNS or $REFS" >&2; exit 2; }
mkdir -p "$OUT"
status=0

# figure WORKLOAD NAME OPTIONS...: OUT/NAME.svg and its Markdown table OUT/NAME.md
figure() {
  local wl=$1 name=$2; shift 2
  echo "+ clbench compare ${files[*]} --workload $wl $* --plot $OUT/$name.svg" >&2
  if "$CB" compare "${files[@]}" --workload "$wl" "$@" --markdown --plot "$OUT/$name.svg" >"$OUT/$name.md.tmp"; then
    mv "$OUT/$name.md.tmp" "$OUT/$name.md"
  else
    rm -f "$OUT/$name.md.tmp"
    echo "make_figures: $name not made (see the line above)" >&2
    status=1
  fi
}

# 1. STREAM copy and triad: GB/s by kernel, every device and source, peaks dashed
figure stream compare-stream --kernel copy,triad --any-size --sweep none
# 2. transpose, float: every kernel on every device (log scale where the range is wide)
figure transpose compare-transpose --dtype float --any-size --sweep none
# 2b. transpose, float, at the whitepaper's own size only (2048x2048; cache-resident on the H100)
figure transpose compare-transpose-2048 --dtype float --size 2048x2048 --sweep none
# 2c. dslash, fp32, 64^3x16: GFlop/s against rhs, reg and cache kernels, both link kinds
figure dslash compare-dslash --metric gflops --dtype float --size 64x64x64x16
# 3. "performance relative to K20" (the HISQ talk's view): STREAM double, a table only
if "$CB" compare "${files[@]}" --workload stream --dtype double --kernel copy,triad --any-size --sweep none \
     --relative-to 'K20c (ECC on)' --markdown >"$OUT/compare-stream-relative.md.tmp"; then
  mv "$OUT/compare-stream-relative.md.tmp" "$OUT/compare-stream-relative.md"
else
  rm -f "$OUT/compare-stream-relative.md.tmp"; status=1
fi
exit $status
