#!/usr/bin/env bash
# One results format in two encodings (docs/RESULTS.md): every command that
# reads results reads JSON Lines as it reads CSV. Every committed fixture and
# reference file that reads as CSV (and some committed runs) is converted to
# JSON Lines by an independent converter (python, below), and each reading
# command gives the same exit status, stdout and stderr on both (the file
# names aside). A run's own JSON Lines are read back too, and appending JSON
# to a file that is not clbench rows is refused with the file untouched.
source "$(dirname "$0")/lib.sh"
set -e
S="$CLBENCH_SRC"
NUM="warmup reps bytes flops t_min_s t_median_s t_mean_s t_max_s t_stddev_s gbps gbps_best gflops pct_peak_bw model ranks energy_j avg_power_w"

# to_jsonl IN.csv OUT.jsonl: the same rows as JSON Lines (empty fields null,
# figures numbers, metrics an object); 1 when the CSV is not a results file,
# 3 when it is not UTF-8.
to_jsonl() {
  rows to-jsonl "$1" "$2" "$NUM"
}

# same WHAT ARGS... (with @F for the file): the CSV and the JSON Lines give
# the same exit status and output.
same() {
  local what=$1; shift
  local a=() b=() x
  for x in "$@"; do a+=("${x//@F/$csv}"); b+=("${x//@F/$json}"); done
  run_cb "${a[@]}"; local rc1=$RC out1=$OUT_TXT err1=$ERR_TXT
  run_cb "${b[@]}"
  OUT_TXT=${OUT_TXT//.jsonl/.csv}; ERR_TXT=${ERR_TXT//.jsonl/.csv}
  if [ "$RC" != "$rc1" ] || [ "$OUT_TXT" != "$out1" ] || [ "$ERR_TXT" != "$err1" ]; then
    fail "$what on $(basename "$csv"): CSV exit $rc1, JSON Lines exit $RC; $(diff <(echo "$out1$err1") <(echo "$OUT_TXT$ERR_TXT") | head -5)"
    return
  fi
  checks=$((checks + 1))
}

files=("$S"/tests/data/compare/*.csv "$S"/tests/data/ceilings/*.csv "$S"/results/reference/*.csv
       "$S"/results/runs/2026-11-23/pocl-2core-suite.csv "$S"/results/runs/2026-11-23/h200x2-mpi.csv)
checks=0 converted=0
for f in "${files[@]}"; do
  "$CLBENCH" compare "$f" --json >/dev/null 2>&1 || continue   # files made to be refused
  csv=$PWD/$(basename "$f")
  json=${csv%.csv}.jsonl
  cp "$f" "$csv"
  rc=0; to_jsonl "$csv" "$json" || rc=$?
  [ "$rc" -eq 3 ] && continue
  [ "$rc" -eq 0 ] || { fail "cannot convert $f"; continue; }
  converted=$((converted + 1))
  same "compare" compare @F
  same "compare --json" compare @F --json
  same "compare -m pct_measured_peak" compare @F -m pct_measured_peak
  same "compare --any-size" compare @F --any-size -m pct_peak
  same "compare --baseline" compare @F --baseline @F
  same "model --ceilings" model roofline -w stream -k copy -t float -s 1M -p h100_sxm --ceilings @F
  same "results upgrade" results upgrade @F
  same "compare after the upgrade" compare @F --json
done
[ "$converted" -ge 18 ] && pass "$converted files, $checks commands: the same on CSV and JSON Lines" ||
  fail "only $converted files converted"

# a run's own JSON Lines: compare, --baseline, --ceilings, upgrade read them
expect_status 0 "run -o rows.jsonl" run stream,latency --quick -d $POCL -t float -n 2 -o rows.jsonl
expect_status 0 "compare rows.jsonl" compare rows.jsonl
expect_error 2 "a run cannot be its own baseline" "compare --baseline rows.jsonl reads its run ids" \
  compare rows.jsonl --baseline rows.jsonl
# (its quick rows are cache-resident: no bandwidth ceiling, but the file is read)
run_cb model roofline -w stream -k copy -t float -s 1M -p pocl_cpu --ceilings rows.jsonl
echo "$OUT_TXT" | grep -q "ceilings measured on .*(rows.jsonl)" && pass "model --ceilings reads rows.jsonl" ||
  fail "model --ceilings rows.jsonl: $OUT_TXT $ERR_TXT"
expect_status 0 "run --ceilings rows.jsonl" run stream --quick -d $POCL -t float -n 1 --ceilings rows.jsonl -o more.jsonl
expect_status 0 "results upgrade rows.jsonl" results upgrade rows.jsonl
echo "$OUT_TXT" | grep -q "already schema v3" && pass "a run's JSON Lines are v3" || fail "upgrade: $OUT_TXT"

# appending JSON requires clbench rows of schema v3 first; else exit 2, untouched
"$CLBENCH" compare "$S/tests/data/compare/gpu.csv" --json > doc.json
printf '{"level":"info","msg":"x"}\n' > log.jsonl
to_jsonl "$S/tests/data/ceilings/fixture.csv" v2.jsonl
for f in doc.json log.jsonl v2.jsonl; do
  cp "$f" "$f.orig"
  expect_error 2 "$f.*(not a JSON Lines file of clbench rows|results upgrade)" "append to $f refused" \
    run stream --quick -d $POCL -t float -n 1 -o "$f"
  cmp -s "$f" "$f.orig" && pass "$f untouched" || fail "$f changed"
done
finish
