#!/usr/bin/env bash
# The report in a real browser (scripts/report_browser_check.sh): the page of
# the fixture (a real PoCL quick run, a hostile second device, the published
# figures) loads in headless Chromium without a console error, runs no
# script, and its screenshot is not blank. Skipped where Chromium is not
# installed (it is not a build dependency: docs/REPORT.md, "Tests").
source "$(dirname "$0")/lib.sh"
set -e
CHECK="$CLBENCH_SRC/scripts/report_browser_check.sh"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  echo "skip: no chromium here (apt-get install chromium to run this check)"
  finish
  exit 0
fi
export TMPDIR="$TMP"
run_cb report "$CLBENCH_SRC"/tests/data/report/*.csv "$CLBENCH_SRC"/results/reference/*.csv -o page.html
[ "$RC" -eq 0 ] && pass "the page made" || fail "report: exit $RC: $ERR_TXT"
set +e
out=$(bash "$CHECK" page.html shot.png 2>&1)
rc=$?
set -e
[ "$rc" -eq 0 ] && pass "$(echo "$out" | tail -1)" || fail "browser check: $out"
finish
