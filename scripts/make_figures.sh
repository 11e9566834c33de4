#!/usr/bin/env bash
# Regenerate the figures and tables of docs/COMPARE.md from the committed
# results: measured runs (results/runs/*.csv) beside published figures
# (results/reference/*.csv). Needs a built clbench and gnuplot.
#
#   scripts/make_figures.sh                 # after cmake --build build
#   CB=/path/to/clbench RUNS=dir REFS=dir scripts/make_figures.sh
#
# The ceilings figures (docs/PERFORMANCE.md, "Ceilings") go to FIGS
# (docs/figures): a roofline per GPU and the latency staircases, from the
# second round's suites (H100_RUN, H200_RUN).
#
# Every device ran at its own default size and the published sources
# ([Ruetsch09], [Deakin16]) used theirs, so the
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
# 3. "performance relative to K20" (the HISQ talk's view, [Wagner15]): STREAM double, a table only
if "$CB" compare "${files[@]}" --workload stream --dtype double --kernel copy,triad --any-size --sweep none \
     --relative-to 'K20c (ECC on)' --markdown >"$OUT/compare-stream-relative.md.tmp"; then
  mv "$OUT/compare-stream-relative.md.tmp" "$OUT/compare-stream-relative.md"
else
  rm -f "$OUT/compare-stream-relative.md.tmp"; status=1
fi
# 4. ceilings of the H100 and the H200 (docs/PERFORMANCE.md, "Ceilings"): a roofline
#    per device (every row with bytes and flops placed under the measured roof), the
#    latency staircases of both, and every row in % of its device's measured ceiling
FIGS=${FIGS:-docs/figures}
H100_RUN=${H100_RUN:-results/runs/2026-11-23/h100-suite-4.csv}
H200_RUN=${H200_RUN:-results/runs/2026-11-23/h200-suite-3.csv}
mkdir -p "$FIGS"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for dev in h100 h200; do
  run=H100_RUN; [ $dev = h200 ] && run=H200_RUN
  # all the file's rows: compare draws every workload's figure into the scratch
  # directory; the roofline is the one kept
  echo "+ clbench compare ${!run} --plot $FIGS/roofline-$dev.svg (the roofline figure)" >&2
  if "$CB" compare "${!run}" --plot "$scratch/$dev.svg" >/dev/null &&
     f=("$scratch/$dev"-roofline-*.svg) && [ ${#f[@]} -eq 1 ]; then
    mv "${f[0]}" "$FIGS/roofline-$dev.svg"
  else
    echo "make_figures: roofline-$dev not made" >&2; status=1
  fi
done
echo "+ clbench compare $H100_RUN $H200_RUN --workload latency --plot $FIGS/latency-h100-h200.svg" >&2
"$CB" compare "$H100_RUN" "$H200_RUN" --workload latency --plot "$FIGS/latency-h100-h200.svg" >/dev/null || status=1
if "$CB" compare "$H100_RUN" "$H200_RUN" --metric pct_measured_peak --workload stream,peak,roofline,dot,dslash,cg,matmul \
     --any-size --sweep none --markdown >"$FIGS/ceilings-h100-h200.md.tmp"; then
  mv "$FIGS/ceilings-h100-h200.md.tmp" "$FIGS/ceilings-h100-h200.md"
else
  rm -f "$FIGS/ceilings-h100-h200.md.tmp"; status=1
fi
# 5. the scaling model (docs/SCALING.md, "The scaling model"): efficiency against
#    the ranks, host-staged and device to device, from the committed H200 rows
#    (2026-11-23: the chain before packing; shm_gbps fitted on their 2-rank run,
#    as tests/cli/test_model_scaling.sh does): weak 64^3x16 per rank and strong
#    96^3x192, dslash fp32 compressed rhs 1
SC_RES=${SC_RES:-results/runs/2026-11-23/h200x2-mpi.csv,results/runs/2026-11-23/h200-suite-3.csv}
SC_SHM=${SC_SHM:-6.48}
for sc in weak strong; do
  L=64x64x64x16; [ $sc = strong ] && L=96x96x96x192
  echo "+ clbench model scaling --results $SC_RES -s $L --param scaling=$sc --plot $FIGS/scaling-$sc-h200.svg" >&2
  "$CB" model scaling --results "$SC_RES" -w dslash -k reg --param rhs=1 --param links=compressed \
    --param shm_gbps="$SC_SHM" --param scaling=$sc -s $L --plot "$FIGS/scaling-$sc-h200.svg" \
    >"$FIGS/scaling-$sc-h200.txt" || status=1
done
exit $status
