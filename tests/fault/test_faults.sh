#!/usr/bin/env bash
# Every injected OpenCL fault, in every registered workload: the call fails
# from its first use on (CALL:1+), so each workload meets it wherever it makes
# that call. Expected: exit 3 (or 0 where no workload makes the call), one
# closing 'clbench:' line naming the call and the CL error, an 'error' row
# naming them for each affected configuration, never a 'failed' row, every
# workload still reached (the suite goes on), a CSV that parses, no crash,
# no sanitizer report and no OpenCL object left unreleased.
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e

# call -> the error the injector returns for it
declare -A ERRS=(
  [clCreateBuffer]=CL_MEM_OBJECT_ALLOCATION_FAILURE
  [clBuildProgram]=CL_BUILD_PROGRAM_FAILURE
  [clEnqueueNDRangeKernel]=CL_OUT_OF_RESOURCES
  [clWaitForEvents]=CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
  [clFinish]=CL_OUT_OF_RESOURCES
  [clEnqueueMapBuffer]=CL_MAP_FAILURE
  [clEnqueueUnmapMemObject]=CL_OUT_OF_RESOURCES
  [clEnqueueReadBuffer]=CL_OUT_OF_RESOURCES
  [clEnqueueWriteBuffer]=CL_OUT_OF_RESOURCES
)
all=$(echo $WORKLOADS | tr ' ' ',')

for call in clCreateBuffer clBuildProgram clEnqueueNDRangeKernel clWaitForEvents clFinish \
            clEnqueueMapBuffer clEnqueueUnmapMemObject clEnqueueReadBuffer clEnqueueWriteBuffer; do
  err=${ERRS[$call]}
  csv=$call.csv
  run_fault "$call:1+" "" run all "${FAST[@]}" -o "$csv"
  no_crash "$call"
  if ! n=$(csv_check "$csv"); then fail "$call: $csv does not parse"; continue; fi
  if [ -z "$FIRED" ]; then
    # no workload makes this call: the run must be clean
    [ "$RC" -eq 0 ] && pass "$call: never called by $all; clean run ($n rows)" ||
      fail "$call: never injected, yet exit $RC: $ERR_TXT"
    continue
  fi
  if [ "$RC" -eq 0 ] && [ "$call" = clEnqueueUnmapMemObject ] &&
     [ "$(csv_query "$csv" "sorted(set(r['status'] for r in rows) - {'skipped'})")" = "['ok']" ]; then
    # unmapping only while releasing (teardown): nothing can be reported
    # there and every row is already written; see docs/RELIABILITY.md
    pass "$call: struck only while releasing; every row ok, exit 0"
    continue
  fi
  [ "$RC" -eq 3 ] && pass "$call: exit 3" || fail "$call: exit $RC, expected 3; stderr: $(tail -n 3 "$TMP/stderr")"
  # (with clFinish failing everywhere, the drain as the device closes adds a
  # warning after the closing message; it is not counted)
  msgs=$(grep '^clbench: ' "$TMP/stderr" | grep -v '^clbench: warning: clFinish while closing the device' || true)
  last=$(echo "$msgs" | tail -n 1)
  if echo "$last" | grep -q "ended in an error.*$call.*$err"; then pass "$call: closing message: $last"
  else fail "$call: closing message does not name $call and $err: '$last'"; fi
  # the closing message is the only one unless a build log precedes it
  nmsg=$(echo "$msgs" | grep -c '^clbench: ' || true)
  nlog=$(grep -c '^clbench: build log' "$TMP/stderr" || true)
  [ "$nmsg" -eq $((nlog + 1)) ] && pass "$call: one message (+ $nlog build logs)" ||
    fail "$call: $nmsg 'clbench:' lines on stderr: $(grep '^clbench: ' "$TMP/stderr" | head -n 5)"
  # every error row names the call and the error; no fault becomes a 'failed' row
  bad=$(csv_query "$csv" "[r['workload']+' '+r['kernel']+': '+r['detail'] for r in rows if r['status']=='error' and not ('$call' in r['detail'] and '$err' in r['detail'])]")
  [ "$bad" = "[]" ] && pass "$call: every error row names $call and $err" || fail "$call: error rows not naming the call: $bad"
  nerr=$(csv_query "$csv" "sum(r['status']=='error' for r in rows)")
  [ "$nerr" -ge 1 ] && pass "$call: $nerr error rows" || fail "$call: injected but no error row"
  nfailed=$(csv_query "$csv" "sum(r['status']=='failed' for r in rows)")
  [ "$nfailed" -eq 0 ] && pass "$call: no 'failed' row" || fail "$call: $nfailed rows 'failed' (a fault reported as a wrong result)"
  # the suite went on: every workload has rows
  for w in $WORKLOADS; do
    k=$(csv_query "$csv" "sum(r['workload']=='$w' for r in rows)")
    [ "$k" -ge 1 ] && pass "$call: $w reached ($k rows)" || fail "$call: no row for $w: the suite stopped"
  done
done

# No context: nothing can run. One line naming the call, exit 3, and no
# results file created (the device is opened before the file).
run_fault "clCreateContext:1" "" run all "${FAST[@]}" -o nocontext.csv
no_crash "clCreateContext"
[ -n "$FIRED" ] || fail "clCreateContext: the fault did not fire"
[ "$RC" -eq 3 ] && pass "clCreateContext: exit 3" || fail "clCreateContext: exit $RC, expected 3"
if [ "$(grep -c . "$TMP/stderr")" -eq 1 ] && grep -q '^clbench: .*clCreateContext.*CL_OUT_OF_HOST_MEMORY' "$TMP/stderr"; then
  pass "clCreateContext: one line: $ERR_TXT"; else fail "clCreateContext: stderr: $ERR_TXT"; fi
[ ! -e nocontext.csv ] && pass "clCreateContext: no results file created" || fail "clCreateContext: results file created"
finish
