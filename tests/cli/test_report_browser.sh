#!/usr/bin/env bash
# The report in a real browser (scripts/report_browser_check.sh): the page of
# the fixture (a real PoCL quick run, a hostile second device, the published
# figures) loads in headless Chromium without a console error, runs no
# script, keeps every chart (inline SVG) in its DOM after load, and its
# screenshot is not blank. bench.sh test installs Debian's
# chromium-headless-shell, so CI runs it; skipped (exit 77) only where no
# Chromium is installed.
source "$(dirname "$0")/lib.sh"
set -e
CHECK="$CLBENCH_SRC/scripts/report_browser_check.sh"
command -v chromium-headless-shell >/dev/null || command -v chromium >/dev/null ||
  command -v chromium-browser >/dev/null ||
  skip_test "no Chromium here (apt-get install chromium-headless-shell to run this check)"
command -v gnuplot >/dev/null || fail "no gnuplot: the page would have no chart to check (apt-get install gnuplot-nox)"
export TMPDIR="$TMP"
run_cb report "$CLBENCH_SRC"/tests/data/report/*.csv "$CLBENCH_SRC"/results/reference/*.csv -o page.html
[ "$RC" -eq 0 ] && pass "the page made" || fail "report: exit $RC: $ERR_TXT"
n=$(grep -o '<svg' page.html | wc -l)
[ "$n" -ge 1 ] && pass "the page has $n charts" || fail "the page has no chart"
set +e
out=$(bash "$CHECK" page.html shot.png 2>&1)
rc=$?
set -e
[ "$rc" -eq 0 ] && pass "$(echo "$out" | tail -1)" || fail "browser check (exit $rc): $out"
finish
