#!/usr/bin/env bash
# Tiles and work-groups that fit (docs/PORTABILITY.md): with the device's
# work-group limit forced small and odd by the test hook CLBENCH_MAX_WORK_GROUP,
# every workload runs on PoCL, each launch within the limit, every row ok or
# skipped for a reason that is not the tile (no fp64, no half), one summary
# line per reduction; with no limit forced the studies' tiles stay as they
# are. Where Mesa's Rusticl is installed, the dot host/hybrid rows it failed
# (a flushed queue's clFinish returning early) and the transpose serial row it
# failed (llvmpipe's loop limit) are checked on it too.
source "$(dirname "$0")/lib.sh"
set -e

# check_rows FILE LIMIT: every row ok or skipped for a type the device lacks,
# and every work-group (local_size, e.g. 32x1) at most LIMIT work-items
check_rows() {
  rows tiles-fit "$1" "$2"
}

# 7: below every default tile and work-group, odd (no power of two divides it)
# (float only and one timed run: the suite's time, under ASan too)
CLBENCH_MAX_WORK_GROUP=7 expect_status 0 "every workload, work-groups <= 7" \
  run all --quick -d $POCL -t float,int -n 1 --warmup 0 -o w7.csv --wide
if check_rows w7.csv 7 >check.txt; then pass "limit 7: $(tail -1 check.txt)"
else fail "limit 7: $(cat check.txt)"; fi
n=$(rows ok-workloads w7.csv)
wl=$("$CLBENCH" --help --wide | awk '/^workloads:/{w=1;next} w&&NF{print $1} w&&!NF{exit}' | wc -l)
[ "$n" -eq "$wl" ] && pass "ok rows in all $wl workloads" || fail "ok rows in $n of $wl workloads"
echo "$OUT_TXT" | grep -q "^reduced to fit this device:" && \
  echo "$OUT_TXT" | grep -q "  copy2d: tile 32x8 reduced to 4x1 (work-groups of 32x8 need 256 work-items; CLBENCH_MAX_WORK_GROUP allows 7)" \
  && pass "one summary line per reduction" || fail "no reduction lines in the summary: $OUT_TXT"
rows tiles-fit-reduced w7.csv && pass "a reduced tile is in params and said in detail" || fail "reduced rows without params or note"

# 24: not a power of two; the workloads with a tile or a work-group to fit
# (local=256: stream, dslash and roofline let the driver choose on a CPU)
TILED=stream,copy2d,blockeq,camping,stride,matmul,transpose,dslash,roofline
CLBENCH_MAX_WORK_GROUP=24 expect_status 0 "tiled workloads, work-groups <= 24" \
  run $TILED --quick -d $POCL -t float -n 1 --warmup 0 --param local=256 -o w24.csv
if check_rows w24.csv 24 >check.txt; then pass "limit 24: $(tail -1 check.txt)"
else fail "limit 24: $(cat check.txt)"; fi

# no limit forced: the studies' tiles run as they are where the device allows
# them (PoCL on a CPU: all), reduced to what its limits make of them where not
# (rows.py fit; the second device shape, label shape2, reduces blockeq's)
pocl_limits
expect_status 0 "defaults on PoCL" run copy2d,blockeq,matmul -d $POCL -t float --quick -n 1 \
  --warmup 0 -o plain.csv
if rows tiles-fit-defaults plain.csv "$POCL_WG" "$POCL_DIMS" "$POCL_LOCAL" >check.txt; then
  pass "the studies' tiles: $(cat check.txt)"; else fail "the studies' tiles: $(cat check.txt)"; fi
if grep -q "reduced to " check.txt; then
  echo "$OUT_TXT" | grep -q "^reduced to fit this device:" && pass "the summary lists the reductions" ||
    fail "no reduction in the summary: $OUT_TXT"
else
  echo "$OUT_TXT" | grep -q "reduced to fit" && fail "a default reduced on PoCL: $OUT_TXT" ||
    pass "no reduction where every tile fits"
fi
# a reduced launch is what ran: the gate never sets it against one that ran as
# asked (docs/COMPARE.md, "Line identity")
expect_error 2 "nothing in common: .*ran a tile or work-group reduced" \
  "gate: reduced rows are lines of their own" compare --baseline plain.csv w7.csv

# the hook is checked like any input
CLBENCH_MAX_WORK_GROUP=0 expect_error 2 "CLBENCH_MAX_WORK_GROUP='0'" "limit 0 refused" \
  run copy2d --quick -d $POCL -o bad.csv
CLBENCH_MAX_WORK_GROUP=32x8 expect_error 2 "CLBENCH_MAX_WORK_GROUP='32x8'" "limit 32x8 refused" \
  run copy2d --quick -d $POCL -o bad.csv
CLBENCH_MAX_WORK_GROUP=7 expect_status 0 "list shows the forced limit" list -v
echo "$OUT_TXT" | grep -q "work-group <= 7 (CLBENCH_MAX_WORK_GROUP)" && pass "list: forced limit" \
  || fail "list -v: $OUT_TXT"

# Mesa's Rusticl (llvmpipe), where installed: work-groups of 32
if RUSTICL_ENABLE=llvmpipe "$CLBENCH" list 2>/dev/null | grep -q llvmpipe; then
  RUSTICL_ENABLE=llvmpipe expect_status 0 "dot host/hybrid on Rusticl" run dot --quick \
    -d llvmpipe -t float -n 2 --warmup 1 \
    --param kernels=host,hybrid,host_sumsq,hybrid_sumsq -o rdot.csv
  expect_rows rdot.csv dot host,hybrid,host_sumsq,hybrid_sumsq float
  RUSTICL_ENABLE=llvmpipe expect_status 0 "transpose on Rusticl" run transpose --quick \
    -d llvmpipe -n 1 --warmup 0 --param kernels=copy,serial,naive -o rtr.csv
  rows tiles-fit-rusticl-transpose rtr.csv && pass "Rusticl: serial skipped for llvmpipe's loop limit, the rest ok" || fail "Rusticl transpose rows"
else
  skip_part "Rusticl (RUSTICL_ENABLE=llvmpipe) is not installed here"
fi
finish
