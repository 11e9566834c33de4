#!/usr/bin/env bash
# Wrong results are caught. The injector overwrites one element in the
# middle of the data a read (clEnqueueReadBuffer, clEnqueueReadBufferRect or
# a blocking read map) returns, with a huge finite value.
#  - stream, the first read only: exactly that row 'failed' (detail names the
#    wrong element), every other row ok, exit 1, a closing line saying so.
#  - every registered workload, every read corrupted: no row 'ok', at least
#    one 'failed', exit 1 - whatever a workload reads back, its validation
#    must notice. (Configurations that read nothing back from the device, e.g.
#    a CPU-only baseline, are listed in corrupt_exempt.txt with the reason.)
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e

run_fault "" 1 run stream "${FAST[@]}" -o one.csv
no_crash "stream, first read corrupted"
[ -n "$FIRED" ] || fail "stream: nothing corrupted"
[ "$RC" -eq 1 ] && pass "stream, one element corrupted: exit 1" || fail "stream corrupted: exit $RC, expected 1: $ERR_TXT"
st=$(csv_query one.csv "' '.join(r['status'] for r in rows)")
[ "$st" = "failed ok ok ok ok ok ok ok" ] && pass "stream: first row failed, others ok" || fail "stream statuses: $st"
d=$(csv_query one.csv "rows[0]['detail']")
echo "$d" | grep -q "1 of 1048576 elements wrong" && pass "stream: detail '$d'" || fail "stream: detail '$d' does not count 1 wrong element"
grep -q '^clbench: 0 configurations ended in an error, 1 failed validation; first: stream copy' "$TMP/stderr" &&
  pass "stream: closing message" || fail "stream: closing message: $ERR_TXT"

for w in $WORKLOADS; do
  run_fault "" all run "$w" "${FAST[@]}" -o "$w.csv"
  no_crash "$w, every read corrupted"
  if [ -z "$FIRED" ]; then fail "$w: reads nothing the injector can corrupt (ReadBuffer, ReadBufferRect, blocking MapBuffer)"; continue; fi
  [ "$RC" -eq 1 ] && pass "$w: exit 1" || fail "$w: exit $RC with corrupted output, expected 1: $(tail -n 2 "$TMP/stderr")"
  csv_check "$w.csv" >/dev/null || { fail "$w: CSV broken"; continue; }
  ok=$(python3 - "$w.csv" "$w" "$(dirname "$0")/corrupt_exempt.txt" <<'PY'
import csv, re, sys
f, w, ex = sys.argv[1:]
rules = [l.split("#")[0].split(None, 2) for l in open(ex) if l.strip() and not l.startswith("#")]
rules = [(k, re.compile(p.strip())) for wl, k, p in rules if wl == w]
print([r["kernel"] + " " + r["dtype"] + " " + r["params"] for r in csv.DictReader(open(f, newline=""))
       if r["status"] == "ok" and not any(k == r["kernel"] and p.search(r["params"] + " " + r["detail"])
                                          for k, p in rules)])
PY
)
  nf=$(csv_query "$w.csv" "sum(r['status']=='failed' for r in rows)")
  [ "$ok" = "[]" ] && [ "$nf" -ge 1 ] && pass "$w: $nf rows failed, none ok" ||
    fail "$w: corrupted output accepted as ok: $ok"
done
finish
