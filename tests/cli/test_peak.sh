#!/usr/bin/env bash
# peak on PoCL at --quick: FMA chains per type and width validated bit for
# bit, the counts, the compute-row marks (no cache mark, no %peak bandwidth;
# a model from the fp32/fp64 peaks, none for int), bad parameters refused, and
# kernels with a wrong operation caught.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "peak --quick" run peak --quick -d $POCL -n 3 -o out.csv --peak-bw 100 --peak-gflops 1000 --peak-gflops-dp 500
expect_rows out.csv peak fma float,double
expect_rows out.csv peak mad int
rows peak-rows out.csv 6 && pass "2 widths (--quick) x 3 types: flops, bytes, no cache mark, model by type" || fail "rows"
expect_status 0 "the other widths" run peak --quick -d $POCL -t int -n 2 --param vec=2,8,16 -o widths.csv
n=$(csv_col widths.csv params | cut -d, -f1 | tr '\n' ' ')
[ "$n" = "vec=2 vec=8 vec=16 " ] && pass "vec 2, 8, 16" || fail "widths: $n"
expect_rows widths.csv peak mad int
"$CLBENCH" run peak --quick -q -d $POCL -t float -n 2 --param vec=4 -o s.csv | grep -q "peak arithmetic" && pass "summary" || fail "no summary"
expect_status 0 "acc and an explicit launch" run peak --quick -d $POCL -t double -n 2 --param vec=2 --param acc=4,16 --param groups=3 --param local=5 -o acc.csv
expect_rows acc.csv peak fma double

expect_error 2 "bad vec 3" "vec=3 refused" run peak --quick -q -d $POCL --param vec=3 -o bad.csv
expect_error 2 "bad acc 5" "acc=5 refused" run peak --quick -q -d $POCL --param acc=5 -o bad.csv
expect_error 2 "not a multiple of acc x vec = 128" "size not a multiple" run peak -q -d $POCL -t float -s 1000 -o bad.csv
expect_error 2 "unknown type 'float4'" "type refused" run peak --quick -q -d $POCL -t float4 -o bad.csv
expect_error 2 "groups" "groups=0 refused" run peak --quick -q -d $POCL --param groups=0 -o bad.csv

# a kernel that computes another chain must fail validation (exit 1)
mkdir kd && cp "$CLBENCH_SRC"/cl/*.cl kd/
sed -i 's/#define STEP(x) x = fma(x, x, av);/#define STEP(x) x = fma(x, av, x);/; s/#define STEP(x) x = x \* mv + av;/#define STEP(x) x = x * mv - av;/' kd/peak.cl
grep -q 'fma(x, av, x)' kd/peak.cl && grep -q 'x \* mv - av' kd/peak.cl || fail "sed did not plant the wrong operations"
expect_status 1 "wrong chains caught" run peak --quick -d $POCL -t float,int -n 1 --param vec=4 --kernel-dir kd -o broken.csv
s=$(csv_col broken.csv status | sort | uniq -c | tr -s ' ')
[ "$s" = " 2 failed" ] && pass "both rows failed" || fail "statuses: $s"
grep -q "work-item results differ from the host's chain" broken.csv && pass "the reason is noted" || fail "no reason"
finish
