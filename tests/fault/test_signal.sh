#!/usr/bin/env bash
# Interrupted runs: SIGINT or SIGTERM during a long run. Expected: exit 130 /
# 143; every row measured before the signal in the CSV (here: the 4 rows of a
# small first size, measured before the signal was sent) and no partial row;
# the file parses; one 'interrupted' line on stderr; every OpenCL object
# released before exit (counted by the injector, which fails nothing here).
# SIGKILL (a crash): the rows written before it are still there and parse.
# A hung driver call (the injector's CLBENCH_HANG): the first SIGINT cannot
# be acted on, a second one ends the process at once; the rows stay whole.
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e

for sig in INT TERM KILL; do
  want=$(case $sig in INT) echo 130;; TERM) echo 143;; KILL) echo 137;; esac)
  csv=$sig.csv
  rm -f "$TMP/counts"
  # a small size (4 quick rows), then a size whose cases take seconds each
  # (3000 runs, no time budget, no early stop)
  CLBENCH_FAULT_COUNTS="$TMP/counts" LD_PRELOAD="$PRELOAD" "$CLBENCH" run stream -d $POCL -t float \
    -s 4096,8M -n 3000 --max-time 1000 --tolerance 0 --warmup 0 --param vec=4 -o "$csv" \
    >"$TMP/stdout" 2>"$TMP/stderr" &
  pid=$!
  for i in $(seq 1 600); do   # up to 60 s for the small size's 4 rows
    [ -f "$csv" ] && [ "$(grep -c '^[^r]' "$csv" || true)" -ge 4 ] && break
    sleep 0.1
  done
  sleep 0.5                   # now inside the long size's timing loop
  kill -$sig $pid
  set +e; wait $pid; RC=$?; set -e
  [ "$RC" -eq "$want" ] && pass "SIG$sig: exit $RC" || fail "SIG$sig: exit $RC, expected $want; $(tail -n 3 "$TMP/stderr")"
  [ $sig = KILL ] || no_crash "SIG$sig" "$want"
  if n=$(csv_check "$csv"); then pass "SIG$sig: CSV parses, one header, $n complete rows"; else fail "SIG$sig: CSV broken"; continue; fi
  small=$(csv_query "$csv" "sum(r['size']=='4096' and r['status']=='ok' for r in rows)")
  [ "$small" -eq 4 ] && pass "SIG$sig: the 4 rows measured before the signal are kept" || fail "SIG$sig: $small of the 4 early rows in $csv"
  big=$(csv_query "$csv" "sum(r['size']=='8388608' for r in rows)")
  [ "$big" -eq 0 ] && pass "SIG$sig: no row for the interrupted case" || fail "SIG$sig: $big rows of the interrupted size"
  [ $sig = KILL ] && continue
  grep -q "^clbench: interrupted; 4 rows measured before the signal are in $csv" "$TMP/stderr" &&
    pass "SIG$sig: interrupted message" || fail "SIG$sig: no interrupted message: $(cat "$TMP/stderr" | tail -n 2)"
done

# a driver call that never returns, after the 4 rows of the first size
csv=hang.csv
CLBENCH_HANG=clWaitForEvents:23 CLBENCH_FAULT_LOG="$TMP/fault.log" LD_PRELOAD="$PRELOAD" \
  "$CLBENCH" run stream -d $POCL -t float -s 4096,8192 -n 5 --warmup 0 --param vec=4 -o "$csv" \
  >"$TMP/stdout" 2>"$TMP/stderr" &
pid=$!
for i in $(seq 1 600); do grep -q hangs "$TMP/fault.log" 2>/dev/null && break; sleep 0.1; done
grep -q hangs "$TMP/fault.log" 2>/dev/null && pass "hang: the 23rd clWaitForEvents hangs" || fail "hang: never reached"
kill -INT $pid; sleep 1
kill -0 $pid 2>/dev/null && pass "hang: the first SIGINT waits for the hung call" || fail "hang: gone after one SIGINT"
kill -INT $pid 2>/dev/null || true
set +e; wait $pid; RC=$?; set -e
[ "$RC" -eq 130 ] && pass "hang: the second SIGINT ends it (exit 130)" || fail "hang: exit $RC"
grep -q 'interrupted;' "$TMP/stderr" && fail "hang: ran on after the second signal" || pass "hang: ended at once"
n=$(csv_check "$csv") && [ "$n" -eq 4 ] && pass "hang: the 4 rows before the hang kept, CSV parses" || fail "hang: $n rows"
finish
