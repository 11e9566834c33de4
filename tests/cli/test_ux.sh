#!/usr/bin/env bash
# What a user meets first: the device line before set-up, one progress counter
# with an ETA over the whole invocation, adaptive repetitions, a first SIGINT
# acted on within seconds, the summary's flags, JSON Lines, sizes with units,
# peaks on the command line, several devices, and where results go.
source "$(dirname "$0")/lib.sh"
set -e

# ---- progress ---------------------------------------------------------------
expect_status 0 "stream,copy2d --quick" run stream,copy2d --quick -d $POCL -n 3 -o p.csv
head -n 1 "$TMP/stderr" | grep -q "^device [0-9]* '.*' (cpu, .*), profile .*, results to p.csv" &&
  pass "the device line comes first" || fail "first stderr line: $(head -n 1 "$TMP/stderr")"
rows ux-progress "$TMP/stderr" && pass "one counter over both workloads, total known from the start, no early ETA" || fail "progress: $(grep '^\[' "$TMP/stderr" | head -3)"

# ---- adaptive repetitions ----------------------------------------------------
expect_status 0 "exact -n with --min-reps" run stream --quick -d $POCL -t float -n 5 --min-reps 5 -o exact.csv
[ "$(csv_col exact.csv reps | sort -u)" = 5 ] && pass "-n 5 --min-reps 5: 5 timed runs" || fail "reps: $(csv_col exact.csv reps | sort -u)"
expect_status 0 "time budget" run stream -d $POCL -t float -s 8M -n 200 --tolerance 0 --max-time 0.05 --warmup 1 -o budget.csv
rows ux-budget budget.csv && pass "--max-time 0.05 stops long before -n 200" || fail "budget not honoured"
expect_error 2 "bad --max-time" "--max-time -1 refused" run stream --quick -d $POCL --max-time -1 -o x.csv
expect_error 2 "bad --tolerance" "--tolerance x refused" run stream --quick -d $POCL --tolerance x -o x.csv

# ---- a first SIGINT is acted on within seconds --------------------------------
"$CLBENCH" run stream -d $POCL -t float -s 8M -n 100000 --max-time 1000 --tolerance 0 -o sig.csv \
  >/dev/null 2>"$TMP/sig.err" &
pid=$!
for i in $(seq 1 200); do grep -q "^\[1/" "$TMP/sig.err" 2>/dev/null && break; sleep 0.1; done
sleep 0.3
t0=$(date +%s.%N); kill -INT $pid; set +e; wait $pid; rc=$?; set -e; t1=$(date +%s.%N)
python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 3.0 else 1)" && [ $rc -eq 130 ] &&
  pass "SIGINT ended the run in $(python3 -c "print(round($t1 - $t0, 2))") s (exit 130)" || fail "SIGINT: exit $rc after $(python3 -c "print($t1 - $t0)") s"

# ---- the summary ------------------------------------------------------------
expect_status 0 "summary" run stream --quick -d $POCL -t float -n 3 -o s.csv
echo "$OUT_TXT" | grep -Eq '^stream +copy +float .* C[!~]* +ok' && pass "cache-resident rows flagged C" || fail "no C flag: $OUT_TXT"
echo "$OUT_TXT" | grep -q "^flags: C cache-resident" && pass "flag legend" || fail "no legend"
expect_status 0 "ratios in the summary" run stream,copy2d --quick -d $POCL -t float -n 3 --param tile=32x8,16x16 -o r.csv
echo "$OUT_TXT" | grep -Eq '^workload .* x stream/copy ' && echo "$OUT_TXT" | grep -Eq '^copy2d .* [0-9]\.[0-9]{3} ' &&
  pass "of_stream_copy shown (x stream/copy)" || fail "no ratio: $OUT_TXT"

# ---- peaks and profiles -------------------------------------------------------
expect_status 0 "--peak-bw" run stream --quick -d $POCL -t float -n 3 --peak-bw 50 --peak-gflops 200 -o pk.csv
rows ux-peaks pk.csv && pass "--peak-bw fills %peak and the model, profile marked" || fail "peaks not used"
expect_status 0 "forced profile" run stream --quick -d $POCL -t float -n 2 -p h100_sxm -o fp.csv
echo "$ERR_TXT" | grep -q "warning: profile 'h100_sxm' .* was forced on device .* which it does not match" &&
  pass "a forced profile that does not match warns" || fail "no warning: $ERR_TXT"
expect_status 0 "list -v" list -v
echo "$OUT_TXT" | grep -q "largest buffer" && echo "$OUT_TXT" | grep -q "fp64" && echo "$OUT_TXT" | grep -q "work-group <=" &&
  pass "list -v shows limits, caches, fp64, work-groups" || fail "list -v: $OUT_TXT"

# ---- sizes ------------------------------------------------------------------------
expect_status 0 "-s 4MiB" run stream -d $POCL -t float -s 4MiB -n 2 -o mib.csv
[ "$(csv_col mib.csv size | sort -u)" = 1048576 ] && pass "4MiB of floats is 1048576 elements" || fail "size: $(csv_col mib.csv size | sort -u)"
expect_status 0 "-s 1e5 and 2^17" run stream -d $POCL -t float -s 1e5,2^17 -n 2 -o e.csv
[ "$(csv_col e.csv size | sort -u | tr '\n' ' ')" = "100000 131072 " ] && pass "1e5 and 2^17 written as counts" || fail "sizes: $(csv_col e.csv size | sort -u)"
expect_error 2 "not in bytes|expected NxM" "byte units refused for a 2-D size" run copy2d -d $POCL -s 1GB -o x.csv
expect_error 2 "not a whole number of 8-byte" "bytes that are not whole elements refused" run stream -d $POCL -t double -s 1001B -o x.csv
expect_error 2 "bus takes no types" "a type for an untyped workload says so" run bus -t float -d $POCL -o x.csv

# ---- JSON Lines ----------------------------------------------------------------------
expect_status 0 "-o rows.jsonl" run stream --quick -d $POCL -t float -n 2 -o rows.jsonl
rows ux-jsonl rows.jsonl && pass "JSON Lines: one object per row, the CSV's 38 fields" || fail "JSON Lines broken"
expect_status 0 "--format json" run stream --quick -d $POCL -t float -n 2 --format json -o rows2.txt
python3 -c "import json,sys; [json.loads(l) for l in open('rows2.txt')]" && pass "--format json on any name" || fail "--format json"
expect_error 2 "bad --format" "--format xml refused" run stream --quick -d $POCL --format xml -o x.csv

# ---- several devices; where results go -----------------------------------------------------
expect_status 0 "-d $POCL,$POCL" run stream --quick -d $POCL,$POCL -t float -n 2 -o two.csv
[ "$(grep -c '^device ' "$TMP/stderr")" -eq 1 ] && pass "a device named twice runs once" || fail "duplicate device runs"
expect_status 0 "-d all" run stream --quick -d all -t float -n 2 -o all.csv
echo "$ERR_TXT" | grep -qi "oclgrind" && fail "-d all ran an emulator" || pass "-d all: every device but emulators"
mkdir home && cd home
expect_status 0 "default output" run stream --quick -d $POCL -t float -n 2
ls results/local/*.csv >/dev/null 2>&1 && pass "a user's run goes to results/local/" || fail "no results/local file: $(ls -R)"
cd ..
# ---- a profile's default sizes ([tuning] <workload>.sizes) -----------------------
mkdir pd && cp "$CLBENCH_SRC"/platforms/*.ini pd/ && printf '\n[tuning]\nstream.sizes = 4096,8192\n' >> pd/pocl_cpu.ini
expect_status 0 "[tuning] stream.sizes" run stream -d $POCL -t float -n 2 --platforms-dir pd -o tuned.csv
[ "$(csv_col tuned.csv size | sort -u | tr '\n' ' ')" = "4096 8192 " ] && pass "the profile's sizes replace the rule's" || fail "sizes: $(csv_col tuned.csv size | sort -u)"
finish
