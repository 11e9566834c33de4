#!/usr/bin/env bash
# The watchdog covers every driver call of a run, from the first platform
# query to the last release: a driver that hangs while the
# devices are listed (clGetPlatformIDs, clGetDeviceInfo), while one is opened
# (clCreateContext) or while it is closed (the last clFinish, clReleaseContext)
# ends the run after --case-timeout with exit 6 and one line naming the step
# and the implementation; rows written before it stay whole. The hangs come
# from the injector (CLBENCH_HANG). Before the fix these runs were still going
# 30 s later.
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
RUN=(run stream -d $POCL -t float -s 4096 -n 1 --warmup 0 -q --case-timeout 2)

# hang CALL:N WHAT: run through the injector with CALL's Nth call hanging;
# RC (124: still running after 40 s), ERR_TXT, FIRED
hang() {
  rm -f "$TMP/fault.log" "$TMP/counts"
  set +e
  # (the injector keeps to the process it is preloaded into: not timeout's)
  timeout -s KILL 40 env CLBENCH_HANG=$1 CLBENCH_FAULT_LOG="$TMP/fault.log" LD_PRELOAD="$PRELOAD" \
    "$CLBENCH" "${RUN[@]}" -o "$2.csv" >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?
  set -e
  ERR_TXT=$(cat "$TMP/stderr")
  FIRED=$(cat "$TMP/fault.log" 2>/dev/null || true)
}

# expect_timeout WHAT STEP-PATTERN WHERE-PATTERN
expect_timeout() {
  [ -n "$FIRED" ] || { fail "$1: the hang never fired"; return; }
  [ "$RC" -eq 6 ] && pass "$1: exit 6" || fail "$1: exit $RC, expected 6 (137: still running after 40 s); $ERR_TXT"
  local line; line=$(grep '^clbench: timeout: ' "$TMP/stderr" || true)
  [ "$(grep -c '^clbench:' "$TMP/stderr")" -eq 1 ] && pass "$1: one line" || fail "$1: stderr: $ERR_TXT"
  echo "$line" | grep -Eq "timeout: .*($2).* did not finish within 2 s \(--case-timeout\) on .*($3)" &&
    pass "$1: names the step and the implementation: $line" || fail "$1: message: $ERR_TXT"
}

# while the devices are listed and opened: nothing measured, no results file
for spec in clGetPlatformIDs:1 clGetDeviceInfo:1 clCreateContext:1; do
  call=${spec%%:*}
  hang "$spec" "$call"
  case $call in
    clGetPlatformIDs) expect_timeout "$call" "clGetPlatformIDs" "ICD loader|implementation" ;;
    clGetDeviceInfo) expect_timeout "$call" "clGetDeviceInfo" "platform [0-9]+" ;;
    clCreateContext) expect_timeout "$call" "clCreateContext" "Portable Computing Language" ;;
  esac
  [ ! -e "$call.csv" ] && pass "$call: no results file" || fail "$call: a results file was created"
done

# while the device is closed, after every row: the rows are whole
rm -f "$TMP/counts"
CLBENCH_FAULT_COUNTS="$TMP/counts" LD_PRELOAD="$PRELOAD" "$CLBENCH" "${RUN[@]}" -o clean.csv \
  >/dev/null 2>&1 || fail "the clean run failed"
last=$(awk '$1 == "clFinish" {print $2}' "$TMP/counts")
[ "${last:-0}" -gt 0 ] || fail "the clean run counted no clFinish"
for spec in clFinish:$last clReleaseContext:1; do
  call=${spec%%:*}
  hang "$spec" "$call"
  expect_timeout "$call" "clos" "Portable Computing Language"
  n=$(csv_check "$call.csv") && [ "$n" -eq 4 ] &&
    [ "$(csv_query "$call.csv" "sorted(set(r['status'] for r in rows))")" = "['ok']" ] &&
    pass "$call: the 4 rows written before the hang are whole and ok" || fail "$call: rows: ${n:-none}"
done
finish
