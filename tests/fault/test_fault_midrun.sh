#!/usr/bin/env bash
# One fault in the middle of the whole suite: a clean run counts each call,
# then each call fails once at half its count. Expected: exit 3; an 'error'
# row where it struck; every row measured before it identical (by workload,
# kernel, type, size) to the clean run's and ok; the rest of the suite
# measured after it (the rows after the last error match the clean run's
# last rows); the CSV parses; no crash, leak or unreleased OpenCL object.
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e

run_fault "" "" run all "${FAST[@]}" -o clean.csv
no_crash "clean run"
[ "$RC" -eq 0 ] && pass "clean run of all workloads" || { fail "clean run: exit $RC: $ERR_TXT"; finish; }
cp "$TMP/counts" counts.txt

compare() {  # clean.csv faulted.csv -> "" or the reason they disagree
  python3 - "$1" "$2" <<'PY'
import csv, sys
key = lambda r: (r["workload"], r["kernel"], r["dtype"], r["size"])
clean = [key(r) for r in csv.DictReader(open(sys.argv[1], newline=""))]
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
errs = [i for i, r in enumerate(rows) if r["status"] == "error"]
if not errs:
    print("no error row"); sys.exit()
other = [r for r in rows if r["status"] not in ("error", "ok", "skipped")]
if other:
    print("rows neither ok nor error: %s" % [key(r) + (r["status"],) for r in other]); sys.exit()
first, last = errs[0], errs[-1]
before = [key(r) for r in rows[:first]]
if before != clean[:first]:
    print("rows before the fault differ from the clean run"); sys.exit()
after = [key(r) for r in rows[last + 1:]]
if after and after != clean[len(clean) - len(after):]:
    print("rows after the fault differ from the clean run's last rows"); sys.exit()
# the suite went on to the end unless the fault struck its last group
tail = clean[-1]
if not after and key(rows[last])[:1] != tail[:1] and rows[last]["kernel"] != "*":
    print("the suite stopped after the fault"); sys.exit()
print("")
PY
}

# (each call fails in every workload in test_faults.sh; here one fault of each
# kind - setup, launch, wait, read, map - keeps the time of whole-suite runs down)
for call in clCreateBuffer clEnqueueNDRangeKernel clWaitForEvents clEnqueueReadBuffer clEnqueueMapBuffer; do
  total=$(awk -v c="$call" '$1 == c {print $2}' counts.txt)
  if [ "${total:-0}" -lt 2 ]; then pass "$call: called ${total:-0} times in the clean run; not aimed at"; continue; fi
  at=$((total / 2))
  run_fault "$call:$at" "" run all "${FAST[@]}" -o "$call.csv"
  no_crash "$call #$at of $total"
  [ -n "$FIRED" ] || { fail "$call #$at: the fault did not fire"; continue; }
  [ "$RC" -eq 3 ] && pass "$call #$at: exit 3" || fail "$call #$at: exit $RC, expected 3: $(tail -n 2 "$TMP/stderr")"
  csv_check "$call.csv" >/dev/null && pass "$call #$at: CSV parses, one header" || { fail "$call #$at: CSV broken"; continue; }
  why=$(compare clean.csv "$call.csv")
  [ -z "$why" ] && pass "$call #$at: rows before the fault kept, suite went on" || fail "$call #$at: $why"
done

# The last launch of a cg run is in its last row's profiled solve, after the
# timed runs (the workload's `measured` hook): a fault there makes that row an
# error too (it once left an ok row with a note and exit 0).
run_fault "" "" run cg -t float "${FAST[@]}" -o cg_clean.csv
total=$(awk '$1 == "clEnqueueNDRangeKernel" {print $2}' "$TMP/counts")
run_fault "clEnqueueNDRangeKernel:${total:-1}" "" run cg -t float "${FAST[@]}" -o cg_last.csv
no_crash "cg, last launch #$total"
[ "$RC" -eq 3 ] && pass "cg, last launch: exit 3" || fail "cg, last launch: exit $RC, expected 3"
last=$(csv_query cg_last.csv 'rows[-1]["status"] + " " + rows[-1]["detail"].split("; ")[-1]')
case $last in
  "error after the timed runs: clEnqueueNDRangeKernel"*) pass "cg, last launch: the last row is an error naming the call" ;;
  *) fail "cg, last launch: last row '$last'" ;;
esac

# The last clFinish drains the queue as the device closes, after every row
# was written: it changes no row, but its failure is said.
run_fault "" "" run stream -t float "${FAST[@]}" -o st_clean.csv
total=$(awk '$1 == "clFinish" {print $2}' "$TMP/counts")
run_fault "clFinish:${total:-1}" "" run stream -t float "${FAST[@]}" -o st_last.csv
no_crash "stream, last clFinish #$total"
grep -q "warning: clFinish while closing the device: CL_OUT_OF_RESOURCES" "$TMP/stderr" &&
  pass "stream, last clFinish: a warning names it" || fail "stream, last clFinish: no warning: $ERR_TXT"
finish
