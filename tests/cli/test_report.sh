#!/usr/bin/env bash
# clbench report (docs/REPORT.md): the page of the fixture -- all 15 workloads
# of a real PoCL quick run and a made-up second device with hostile names, a
# failed, a skipped and cache-resident rows, energy columns and an MPI job
# (tests/data/report/make_fixtures.py) -- beside the published references:
# it parses as HTML, runs and loads nothing, has every section and a figure in
# each workload's, shows the hostile names as text; the page without gnuplot
# (tables, one line saying so), with a gnuplot that fails on one chart (that
# chart says why, the others are drawn), interrupted (nothing left behind);
# every normalisation; bad usage and input.
source "$(dirname "$0")/lib.sh"
set -e
set -m
D="$CLBENCH_SRC/tests/data/report"
REF=("$CLBENCH_SRC"/results/reference/*.csv)
CHECK="python3 $CLBENCH_SRC/tests/cli/report_check.py"
export TMPDIR="$TMP/tmp"
mkdir -p "$TMPDIR"
WL=(stream copy2d blockeq camping stride matmul transpose bus dot dslash cg peak launch latency roofline)
SECTIONS=(-s Devices -s "Rows to distrust" -s Energy -s "MPI jobs")
for w in "${WL[@]}"; do SECTIONS+=(-s "$w"); done
FIGURES=()
for w in "${WL[@]}"; do FIGURES+=(-f "$w"); done
HOSTILE=(-t '<script>alert("device")</script> GPU' -t '1.0 "><img src=x onerror=alert(1)>'
         -t "h\"ost'<b>" -t 'note=a"b"><svg onload=alert(2)>' -t '<i>not</i> a tag')

# ---- the fixture's page ------------------------------------------------------------
run_cb report "$D/pocl-quick.csv" "$D/hostile.csv" "${REF[@]}" -o page.html
[ "$RC" -eq 0 ] && [ -s page.html ] && pass "report of the fixture: exit 0" || fail "exit $RC: $ERR_TXT"
echo "$ERR_TXT" | grep -q "^report: page.html$" && pass "says where the page is" || fail "stderr: $ERR_TXT"
if command -v gnuplot >/dev/null; then
  $CHECK page.html "${SECTIONS[@]}" "${FIGURES[@]}" "${HOSTILE[@]}" >check.out 2>&1 &&
    pass "the page: $(cat check.out)" || fail "the page: $(cat check.out)"
else
  skip_part "gnuplot is not installed here, the figures are not checked"
fi
[ -z "$(ls -A "$TMPDIR")" ] && [ "$(ls -A | grep -c '^\.page')" -eq 0 ] &&
  pass "no temporary file left" || fail "left: $(ls -A "$TMPDIR" .)"
grep -q "Chart not drawn" page.html && fail "a chart not drawn: $(grep -o 'Chart not drawn[^<]*' page.html | head -3)" ||
  pass "every chart drawn"

# ---- the marks of schema v3: host-timed rows and an impossible one -------------------------
# (hostile.csv: its stream and peak float rows timer_host=1, a roofline row impossible=1)
rows report-marks page.html >marks.out 2>&1 && pass "marks: $(cat marks.out)" || fail "marks: $(cat marks.out)"

rows report-reduced page.html && pass "the reduced copy2d tile is listed among the rows to distrust" ||
  fail "the reduced launch is not listed"

# ---- the committed GPU suites beside every published figure -------------------
R="$CLBENCH_SRC/results/runs/2026-11-23"
if command -v gnuplot >/dev/null; then
  run_cb report "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" "${REF[@]}" -o gpu.html
  rows report-read gpu.html >read.out 2>&1 && pass "the GPU page: $(cat read.out)" || fail "the GPU page: $(cat read.out)"
fi
run_cb report "$R/h100-suite-3.csv" --no-charts -o idle.html
rows report-idle-ok idle.html && pass "an idle power below the rows' is not flagged" || fail "idle flagged in h100-suite-3"

# ---- without gnuplot: tables, one line ------------------------------------------------
CLBENCH_GNUPLOT=/nonexistent/gnuplot run_cb report "$D/pocl-quick.csv" "$D/hostile.csv" -o nogp.html
[ "$RC" -eq 0 ] && pass "no gnuplot: exit 0" || fail "no gnuplot: exit $RC: $ERR_TXT"
[ "$(grep -c '^clbench: charts need gnuplot' "$TMP/stderr")" -eq 1 ] &&
  pass "no gnuplot: one line: $(grep '^clbench:' "$TMP/stderr")" || fail "no gnuplot: stderr $ERR_TXT"
$CHECK nogp.html --no-svg "${SECTIONS[@]}" "${HOSTILE[@]}" -t "charts need gnuplot" >check.out 2>&1 &&
  pass "no gnuplot: the page has its tables: $(cat check.out)" || fail "no gnuplot: $(cat check.out)"
run_cb report "$D/pocl-quick.csv" --no-charts -o nocharts.html
[ "$RC" -eq 0 ] && [ "$ERR_TXT" = "report: nocharts.html" ] &&
  pass "--no-charts: no warning" || fail "--no-charts: exit $RC: $ERR_TXT"

if command -v gnuplot >/dev/null; then
  # ---- a gnuplot that fails on one chart --------------------------------------------------
  GP=$(command -v gnuplot)
  cat > badgp <<EOF2
#!/bin/sh
case "\$1" in all.gp|fig3.gp) echo "\"\$1\" line 1: planted error" >&2; exit 1;; esac
exec "$GP" "\$@"
EOF2
  chmod +x badgp
  CLBENCH_GNUPLOT=$PWD/badgp run_cb report "$D/pocl-quick.csv" -o bad.html
  n=$(grep -o 'Chart not drawn: [^<]*' bad.html | wc -l)
  [ "$RC" -eq 0 ] && [ "$n" -eq 1 ] && grep -q 'Chart not drawn: gnuplot failed to draw .*planted error' bad.html &&
    pass "one chart fails: the others are drawn, it says why" || fail "one chart fails: exit $RC, $n not drawn: $ERR_TXT"
  echo "$ERR_TXT" | grep -q "^clbench: 1 chart not drawn" && pass "and one line says so" || fail "stderr: $ERR_TXT"

  # ---- every normalisation ----------------------------------------------------------------
  for n in datasheet measured; do
    run_cb report "$CLBENCH_SRC/results/runs/2026-11-23/h100-suite-4.csv" --normalize "$n" -o "n-$n.html"
    [ "$RC" -eq 0 ] && grep -q "% of the $n" "n-$n.html" && pass "--normalize $n" ||
      fail "--normalize $n: exit $RC: $ERR_TXT"
  done
else
  skip_part "gnuplot is not installed here, a failing gnuplot and the normalisations not checked"
fi

# ---- interrupted while gnuplot draws ---------------------------------------------------------
cat > slowgp <<EOF2
#!/bin/sh
echo \$\$ > "$TMP/gp.pid"
exec sleep 60
EOF2
chmod +x slowgp
mkdir sig
CLBENCH_GNUPLOT=$PWD/slowgp "$CLBENCH" report "$D/pocl-quick.csv" -o sig/page.html >/dev/null 2>&1 &
pid=$!
for i in $(seq 200); do [ -s "$TMP/gp.pid" ] && break; sleep 0.05; done
kill -TERM "$pid"
set +e; wait "$pid"; rc=$?; set -e
sleep 0.2
gp=$(cat "$TMP/gp.pid" 2>/dev/null || echo none)
if [ "$gp" != none ] && kill -0 "$gp" 2>/dev/null; then kill "$gp"; fail "SIGTERM: gnuplot still runs"; fi
left=$(find sig "$TMPDIR" -mindepth 1)
[ "$rc" -eq 143 ] && [ -z "$left" ] && pass "SIGTERM: exit 143, nothing left, gnuplot gone" ||
  fail "SIGTERM: exit $rc, left: $left"

# ---- clbench run --report: the page of that run's rows -----------------------------------------
run_cb run stream --quick -d $POCL -t float -o runs.csv
run_cb run stream --quick -d $POCL -t float -o runs.csv --report run.html
last=$(csv_col runs.csv run_id | tail -1)
first=$(csv_col runs.csv run_id | head -1)
ids=$(rows report-run-ids run.html)
[ "$RC" -eq 0 ] && echo "$OUT_TXT" | grep -q "^report: run.html$" && [ "$ids" = "$last" ] &&
  [ "$first" != "$last" ] && pass "run --report: the page of this run only ($ids)" ||
  fail "run --report: exit $RC, run ids '$ids' (this run $last, the file's first $first): $ERR_TXT"
expect_error 2 "--report 'nodir/x.html': cannot write to directory 'nodir'" \
  "run --report into a directory that is not there: refused before the run" \
  run stream --quick -d $POCL --report nodir/x.html

# ---- docs/REPORT.md lists every workload's figure as the code declares it ------------------
bash "$CLBENCH_SRC/scripts/gen_report_doc.sh" "$CLBENCH" >table.md
rows report-doc-table "$CLBENCH_SRC/docs/REPORT.md" table.md && pass "REPORT.md's table of figures is the generated one" ||
  fail "docs/REPORT.md's table of figures differs from scripts/gen_report_doc.sh's (run it with --write)"

# ---- bad usage and input ----------------------------------------------------------------------
expect_error 2 "no results file given" "no file" report -o x.html
expect_error 2 "--normalize 'relative' \(known: absolute, datasheet, measured\)" "bad normalisation" \
  report "$D/pocl-quick.csv" --normalize relative
expect_error 2 "cannot read results file 'nosuch.csv'" "a missing file" report nosuch.csv
expect_error 2 "is a directory" "a directory" report "$D"
expect_error 3 "cannot write '/nonexistent/x.html'" "an output that cannot be written" \
  report "$D/pocl-quick.csv" --no-charts -o /nonexistent/x.html
printf 'run_id,timestamp\n' > notresults.csv
expect_error 2 "not a clbench results file" "not a results file" report notresults.csv
finish
