#!/usr/bin/env bash
# Results through a pipe (docs/RESULTS.md, "Standard output and input"):
# `run -o -` writes the rows to standard output (CSV, or JSON Lines with
# --format json) and what a person reads to stderr, and creates no file named
# "-"; every reader takes "-" for standard input (compare, report, model
# --ceilings); JSON numbers are the shortest text of their value; --report
# with -o - is refused.
source "$(dirname "$0")/lib.sh"
set -e
RUN=(run stream --quick -d "$POCL" -t float -n 3 --warmup 0)

"$CLBENCH" "${RUN[@]}" -o - >rows.csv 2>err.txt || fail "run -o -: exit $?: $(tail -2 err.txt)"
[ ! -e ./- ] && rows ok-rows rows.csv stream copy float && grep -q '^workload ' err.txt &&
  grep -q 'standard output' err.txt && ! grep -q '^workload ' rows.csv &&
  pass "-o -: CSV rows on stdout, the summary on stderr, no file '-'" ||
  fail "-o -: $(head -3 rows.csv) / $(tail -3 err.txt)"

"$CLBENCH" "${RUN[@]}" -o - --format json >rows.jsonl 2>/dev/null || fail "run -o - --format json: exit $?"
rows ok-rows rows.jsonl stream triad float && rows jsonl-shortest rows.jsonl &&
  pass "--format json -o -: JSON Lines, every number the shortest text of its value" ||
  fail "JSON Lines on stdout: $(head -c 300 rows.jsonl)"

"$CLBENCH" "${RUN[@]}" -o - 2>/dev/null | "$CLBENCH" compare - >cmp.txt 2>&1 &&
  grep -Eq '^stream +copy +float' cmp.txt && pass "run -o - | compare -" || fail "compare -: $(cat cmp.txt)"
"$CLBENCH" report - -o page.html --no-charts <rows.jsonl >/dev/null 2>&1 && grep -q '<h2>stream</h2>' page.html &&
  pass "report - (JSON Lines on stdin)" || fail "report -: no page"
run_cb model roofline -w stream -k copy -t float -s 16M \
  --ceilings - <"$CLBENCH_SRC/results/runs/2026-11-23/h100-suite-4.csv"
[ "$RC" -eq 0 ] && echo "$OUT_TXT" | grep -q "ceilings measured on 'NVIDIA H100 80GB HBM3'" &&
  pass "model --ceilings - (the committed H100 suite on stdin)" || fail "model --ceilings -: exit $RC: $ERR_TXT"
expect_error 2 "standard input: empty" "compare - of an empty stdin" compare - </dev/null
expect_error 2 "--report reads the run's results file back" "--report with -o - refused" \
  "${RUN[@]}" -o - --report x.html
"$CLBENCH" "${RUN[@]}" -o /dev/stdout 2>err2.txt | cat >/dev/null
rc=${PIPESTATUS[0]}
[ "$rc" -eq 2 ] && grep -q "for standard output: -o -" err2.txt && pass "-o /dev/stdout (a pipe) points at -o -" ||
  fail "-o /dev/stdout into a pipe: exit $rc: $(cat err2.txt)"
finish
