#!/usr/bin/env bash
# clbench model scaling against the committed 2-GPU rows
# (results/runs/2026-11-23/h200x2-mpi.csv, two H200 of one node, Open MPI's
# shared memory; the plain rows of that GPU model from h200-suite-3.csv): from
# the 1-rank distributed rows, the model predicts each 2-rank case's time per
# application within 15 % of the efficiency measured against the 1-rank run
# (docs/SCALING.md, "The scaling model"). Those rows carry no measurement of
# the message step alone, so its rate (shm_gbps) is fitted on one case (dslash
# reg rhs 1 weak) and predicts the nine others. Also: curves to 4096 ranks,
# the plot, and bad input refused with one line.
source "$(dirname "$0")/lib.sh"
set -e
R="$CLBENCH_SRC/results/runs/2026-11-23"
RES="$R/h200x2-mpi.csv,$R/h200-suite-3.csv"
[ -f "$R/h200x2-mpi.csv" ] && [ -f "$R/h200-suite-3.csv" ] || { fail "committed rows missing"; finish; }

# the committed measurements: per case t1, t2 (ms per application) and, for the
# fit case, the message rate that explains its 2-rank chain
rows model-scaling-cases "$R/h200x2-mpi.csv" >cases.txt || fail "the committed rows: no cases"
shm=$(awk '/^shm/ {print $2}' cases.txt)
if awk -v s="$shm" 'BEGIN { exit !(s + 0 > 0) }'; then pass "fitted on dslash reg rhs 1 weak: shm_gbps=$shm"
else fail "no message rate fitted from dslash reg rhs 1 weak: '$shm'"; fi
# every case of the ten checked (an empty list must not pass), the worst error said
n=0 worst=0
while read -r wl k rhs sc t1 t2; do
  [ "$wl" = shm ] && continue
  n=$((n + 1))
  L=64x64x64x16; [ "$sc" = strong ] && L=64x64x64x32
  run_cb model scaling --results "$RES" -w "$wl" -k "$k" -s "$L" --param rhs="$rhs" \
    --param scaling="$sc" --param grid=1x1x1x2 --param shm_gbps="$shm"
  [ "$RC" -eq 0 ] || { fail "$wl $k rhs $rhs $sc: exit $RC: $ERR_TXT"; continue; }
  t2p=$(awk '$1 == 2 {split($0, f, "|"); split(f[2], g, " "); print g[1]}' "$TMP/stdout")
  if ! err=$(python3 -c "import sys; t1, t2, t2p = map(float, sys.argv[1:]); print('%.4f' % ((t1 / t2p) / (t1 / t2) - 1))" "$t1" "$t2" "$t2p"); then
    fail "$wl $k rhs=$rhs $sc: no 2-rank time in: $OUT_TXT"; continue
  fi
  worst=$(awk -v a="$err" -v w="$worst" 'BEGIN { if (a < 0) a = -a; if (a > w) w = a; print w }')
  if awk -v e="$err" 'BEGIN { exit !(e <= 0.15 && e >= -0.15) }'; then
    pass "$wl $k rhs=$rhs $sc: E(2 over 1 rank) predicted $t1/$t2p against measured $t1/$t2: error $err"
  else
    fail "$wl $k rhs=$rhs $sc: predicted t2 $t2p ms, measured $t2 ms: error $err beyond 15 %"
  fi
done <cases.txt
[ "$n" -eq 10 ] && pass "all 10 cases predicted, the worst within $worst of the measured efficiency" ||
  fail "$n cases in the committed rows, expected 10"

# weak to 4096 ranks, both paths, and the plot
run_cb model scaling --results "$RES" -w dslash -k reg -s 64x64x64x16 --param rhs=1 \
  --param shm_gbps="$shm" --plot eff.svg
[ "$RC" -eq 0 ] && grep -Eq '^ +4096 ' "$TMP/stdout" && pass "curves to 4096 ranks" ||
  fail "to 4096: exit $RC: $ERR_TXT"
[ -s eff.svg ] && grep -q "host-staged" eff.svg && pass "plot drawn" || fail "no plot"
# no message rate anywhere: the host-staged column unknown beyond one rank, not invented
run_cb model scaling --results "$RES" -w dslash -k reg -s 64x64x64x16 --param rhs=1 --param ranks=1,2
awk '$1 == 2' "$TMP/stdout" | grep -q ' - ' && grep -q "shm_gbps.*unknown" "$TMP/stdout" &&
  pass "no shm_gbps: host-staged left blank" || fail "shm unknown: $OUT_TXT"

# the node path against the committed rows of one process driving two H200s
# (2026-11-28): E predicted within 10 % of E measured (against the plain
# kernel of the same run), weak and strong; strong dslash at rhs 4, the one
# chain-bound case, is left out (docs/SCALING.md: the model is 17 % high there)
N="$CLBENCH_SRC/results/runs/2026-11-28/h200x2-node.csv"
for c in "weak dslash 1" "weak dslash 4" "weak cg 1" "weak cg 4" "strong dslash 1" "strong cg 1" \
         "strong cg 4"; do
  set -- $c
  S=64x64x64x32 G=1x1x2x1; [ "$1" = strong ] && S=64x64x64x64 G=1x1x1x2
  run_cb model scaling --results "$N" -w "$2" -k reg -s $S --param rhs="$3" --param scaling="$1" \
    --param grid=$G --param gpus_per_node=2
  ep=$(awk '$1 == "node:" && $2 == 2 {print $NF}' "$TMP/stdout")
  em=$(rows node-e "$N" "$2" "$3" "$S")
  if [ "$RC" -eq 0 ] && python3 -c "import sys; sys.exit(0 if abs(float(sys.argv[1]) / float(sys.argv[2]) - 1) <= 0.10 else 1)" "$ep" "$em"; then
    pass "node path, $1 $2 rhs=$3: E predicted $ep, measured $em"
  else
    fail "node path, $1 $2 rhs=$3: exit $RC, E predicted '$ep', measured $em: $ERR_TXT"
  fi
done
# no N-device rows, no rates: the node column unknown beyond one rank, not invented
run_cb model scaling --results "$RES" -w dslash -k reg -s 64x64x64x16 --param rhs=1 --param ranks=1,2 \
  --param shm_gbps="$shm"
awk '$1 == "node:" && $2 == 2' "$TMP/stdout" | grep -q ' - ' && grep -q "node_gbps.*unknown" "$TMP/stdout" &&
  pass "no node rates: the node path left blank" || fail "node unknown: $OUT_TXT"

expect_error 2 "give --results" "no results file" model scaling -s 64x64x64x16
expect_error 2 "rows differ in kernel" "several kernels need -k" model scaling --results "$RES" \
  -w dslash --param rhs=1
expect_error 2 "no 1-rank distributed row" "no such rows" model scaling --results "$RES" -w dslash -k reg -t double
expect_error 2 "grid=1x2 is not auto" "bad grid" model scaling --results "$RES" -w dslash -k reg \
  --param rhs=1 --param grid=1x2
expect_error 2 "unknown parameter 'shm'" "unknown parameter" model scaling --results "$RES" \
  --param shm=3
finish
