#!/usr/bin/env bash
# No command writes over a file it reads or a results file: the page of
# `run --report` or `report -o`, a figure of `compare --plot` never replaces a
# results file, whatever the order of the options and whatever path names it
# (./, dir/.., a symbolic link, a hard link: the same device and inode). Each
# is refused with one line, exit 2, and the file is left byte for byte.
# (Before: the page was renamed over runs.csv and the command exited 0.)
source "$(dirname "$0")/lib.sh"
set -e
DATA=$CLBENCH_SRC/tests/data/compare
cp "$DATA/cpu.csv" a.csv
rows to-jsonl a.csv a.jsonl "warmup reps bytes flops t_min_s t_median_s t_mean_s t_max_s t_stddev_s gbps gbps_best gflops pct_peak_bw model ranks energy_j avg_power_w"
cp "$DATA/gpu.csv" other.csv
ln -s a.csv link.csv
ln a.csv hard.csv
mkdir sub
sum0=$(cat a.csv a.jsonl other.csv | md5sum)

# refused PATTERN WHAT ARGS...: exit 2, one line matching PATTERN, nothing changed
refused() {
  local pat=$1 what=$2; shift 2
  expect_error 2 "$pat" "$what" "$@"
  [ "$(cat a.csv a.jsonl other.csv | md5sum)" = "$sum0" ] && pass "$what: the results files unchanged" ||
    fail "$what: a results file changed"
  ls | grep -q '^\..*XXXX\|\.html\.' && fail "$what: a temporary file left" || true
}

RUN=(run stream -d $POCL -t float -s 4096 -n 1 --warmup 0 -q)
refused "results file" "run -o runs.csv --report runs.csv" "${RUN[@]}" -o runs.csv --report runs.csv
[ ! -e runs.csv ] && pass "nothing measured, no runs.csv" || fail "runs.csv created"
refused "results file" "run --report first" "${RUN[@]}" --report runs.csv -o runs.csv
refused "results file" "run --report ./runs.csv" "${RUN[@]}" -o runs.csv --report ./runs.csv
refused "results file" "run --report sub/../runs.csv" "${RUN[@]}" -o runs.csv --report sub/../runs.csv
refused "results file" "run into a.csv --report link.csv" "${RUN[@]}" -o a.csv --report link.csv
refused "results file" "run into a.csv --report hard.csv" "${RUN[@]}" -o a.csv --report hard.csv
refused "results file" "run --report over another results file" "${RUN[@]}" -o runs.csv --report other.csv
refused "results file" "run --report over its --ceilings" "${RUN[@]}" -o runs.csv --ceilings a.csv --report a.csv

refused "results file" "report a.csv -o a.csv" report a.csv -o a.csv
refused "results file" "report -o a.csv a.csv" report -o a.csv a.csv
refused "results file" "report -o link.csv" report a.csv -o link.csv
refused "results file" "report -o hard.csv" report a.csv -o hard.csv
refused "results file" "report -o sub/../a.csv" report a.csv -o sub/../a.csv
refused "results file" "report a.jsonl -o a.jsonl" report a.jsonl -o a.jsonl
refused "results file" "report -o another results file" report a.csv -o other.csv

ln -s a.csv fig.svg
refused "results file" "compare --plot over a link to its input" compare a.csv --plot fig.svg
ln -s other.csv fig2.svg
refused "results file" "compare --plot over a results file" compare a.csv --plot fig2.svg

# the default results file, named only when the run opens the device: the
# page is refused after the run, the run's rows kept
run_cb "${RUN[@]}"
dflt=$(ls results/local/*.csv 2>/dev/null | head -n 1)
if [ -n "$dflt" ]; then
  rm "$dflt"
  run_cb "${RUN[@]}" --report "$dflt"
  [ "$RC" -eq 2 ] && grep -q "^clbench: .*results file" "$TMP/stderr" &&
    pass "run --report over the default results file: exit 2 ($(grep '^clbench:' "$TMP/stderr"))" ||
    fail "run --report over the default results file: exit $RC: $ERR_TXT"
  n=$(csv_col "$dflt" run_id | wc -l)
  [ "$n" -eq 4 ] && pass "the run's rows kept ($n)" || fail "$dflt: $n rows"
else
  fail "no default results file under results/local: $ERR_TXT"
fi

# an ordinary page is still written
expect_status 0 "report -o page.html" report a.csv -o page.html
finish
