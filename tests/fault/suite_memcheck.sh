#!/usr/bin/env bash
# The whole --quick suite under the sanitizer build (registered only there):
# every workload runs and validates with AddressSanitizer, UBSan and
# LeakSanitizer watching (leaks inside the OpenCL runtime are suppressed by
# tests/lsan.supp, clbench's own never are). Exit 0, every row ok or skipped.
source "$(dirname "$0")/../cli/lib.sh"
set -e
run_cb run all --quick -d $POCL -o suite.csv
[ "$RC" -eq 0 ] && pass "run all --quick: exit 0" || fail "run all --quick: exit $RC: $(tail -n 5 "$TMP/stderr")"
if grep -Eq 'Sanitizer|runtime error:' "$TMP/stderr"; then
  fail "sanitizer report: $(grep -E -m 5 'Sanitizer|runtime error|#[0-9] ' "$TMP/stderr")"
else pass "no sanitizer report"; fi
bad=$(python3 -c 'import csv,sys
print([r["workload"]+" "+r["kernel"]+" "+r["status"] for r in csv.DictReader(open("suite.csv")) if r["status"] not in ("ok","skipped")])')
[ "$bad" = "[]" ] && pass "every row ok or skipped" || fail "rows not ok: $bad"
for w in $("$CLBENCH" --help | awk '/^workloads:/ {f = 1; next} f && /^  [a-z0-9_]+ / {print $1} f && /^$/ {exit}'); do
  grep -q ",$w," suite.csv && pass "$w ran" || fail "no row for $w"
done
finish
