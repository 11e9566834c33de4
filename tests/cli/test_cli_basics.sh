#!/usr/bin/env bash
# The command line: help, version, list, profiles, and every kind of bad input
# ending in one clear line, the right exit status, and an untouched CSV.
source "$(dirname "$0")/lib.sh"

expect_status 0 "--help" --help
echo "$OUT_TXT" | grep -q "stream" && pass "help lists workloads" || fail "help lacks workloads"
expect_status 0 "--version" --version
echo "$OUT_TXT" | grep -Eq '^clbench [0-9]+\.[0-9]+' && pass "version" || fail "version: $OUT_TXT"
expect_status 0 "stream --help" stream --help
echo "$OUT_TXT" | grep -q "vec" && pass "workload help lists vec" || fail "stream --help: $OUT_TXT"
expect_status 0 "list" list --wide
echo "$OUT_TXT" | grep -Eq "cpu .*pocl_cpu.*Portable Computing Language" && pass "list shows PoCL with its profile" || fail "list: $OUT_TXT"
expect_status 0 "profiles" profiles
echo "$OUT_TXT" | grep -Eq "h100_sxm .*3352" && pass "profiles shows the H100 peak" || fail "profiles: $OUT_TXT"

# A valid CSV that every bad invocation must leave byte-for-byte unchanged.
"$CLBENCH" run stream --quick -q -d $POCL -t float -n 2 -o keep.csv >/dev/null || fail "seed run"
sum() { sha256sum keep.csv | cut -d' ' -f1; }
before=$(sum)

expect_error 2 "unknown workload 'trnaspose' \(known: stream" "unknown workload" run trnaspose -o keep.csv
expect_error 2 "bad size '-5'" "negative size" run stream -s -5 -o keep.csv
expect_error 2 "bad size 'abc'" "non-numeric size" run stream -s abc -o keep.csv
expect_error 2 "bad size '0'" "zero size" run stream -s 0 -o keep.csv
expect_error 2 "unknown parameter 'foo' for stream \(known: vec" "unknown --param key" run stream --param foo=1 -o keep.csv
expect_error 2 "KEY=VALUE" "--param without =" run stream --param vec -o keep.csv
expect_error 2 "stream: parameter vec: .*'x'" "bad param value" run stream --quick -d $POCL --param vec=x -o keep.csv
expect_error 2 "bad vec 3" "vec out of set" run stream --quick -d $POCL --param vec=3 -o keep.csv
expect_error 2 "device index 9 out of range" "device index out of range" run stream -d 9 -o keep.csv
expect_error 2 "no device matches 'radeon'" "unknown device name" run stream -d radeon -o keep.csv
expect_error 2 "unknown profile 'c1060x' \(known: " "missing profile" run stream -p c1060x -o keep.csv
expect_error 2 "unknown type 'half'" "unknown type" run stream -t half -o keep.csv
expect_error 2 "bad --reps '0'" "zero reps" run stream -n 0 -o keep.csv
expect_error 2 "unknown option '--frobnicate'" "unknown option" run stream --frobnicate -o keep.csv
expect_error 2 "unknown command 'rnu'" "unknown command" rnu stream
expect_error 2 "which workload" "no workload" run
expect_error 2 "cannot (write|create|use)" "unwritable -o" run stream --quick -d $POCL -o /dev/null/sub/x.csv
expect_error 2 "cannot open profile directory '/nonexistent'" "bad --platforms-dir" run stream --platforms-dir /nonexistent -o keep.csv
[ "$(sum)" = "$before" ] && pass "CSV unchanged by every refusal" || fail "keep.csv changed"

printf 'a,b\n1,2\n' > other.csv
cp other.csv other.orig
expect_error 2 "results file 'other.csv' has another header" "CSV with another header" run stream --quick -d $POCL -o other.csv
cmp -s other.csv other.orig && pass "other.csv byte-for-byte unchanged" || fail "other.csv changed"
finish
