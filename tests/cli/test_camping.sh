#!/usr/bin/env bash
# camping on PoCL: a short distance sweep per type, constant bytes, the
# summary (a verdict only where the profile names partitions), and bad
# parameters refused.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "camping --quick" run camping --quick -d $POCL -n 2 --warmup 1 -t float,double,float4 --param base=256 --param max_distance=1024 -o out.csv
expect_rows out.csv camping copy float,double,float4
rows camping-distances out.csv && pass "distances 0..1024 step 256, bytes constant" || fail "distances or bytes"
# on a CPU the default step is 1024 B (no partitions to camp on)
expect_status 0 "CPU default step" run camping --quick -d $POCL -n 1 --warmup 0 -t float --param max_distance=4096 -o cpu.csv
[ "$(csv_col cpu.csv params | sed 's/.*distance=//' | tr '\n' ' ')" = "0 1024 2048 3072 4096 " ] &&
  pass "CPU default distances step 1024" || fail "CPU distances: $(csv_col cpu.csv params | tr '\n' ' ')"
"$CLBENCH" run camping --quick -q -d $POCL -n 2 --warmup 1 -t float --param base=512 --param max_distance=2048 --param groups=3 -o s.csv --wide > sum.txt
# PoCL's profile names no memory partitions: the curve's shape, no camping verdict
grep -Eq "float 4194304 groups=3: median .* over 5 distances; worst: .*; (flat|dip) \(worst .*no verdict on camping: the profile pocl_cpu names no memory partitions" sum.txt \
  && ! grep -Eq "CAMPING|no camping" sum.txt && pass "no verdict without partitions" || fail "summary: $(cat sum.txt)"
# a profile with partitions (the C1060's 8): a verdict
"$CLBENCH" run camping --quick -q -d $POCL -p tesla_c1060 -n 1 --warmup 0 -t float --param base=512 --param max_distance=1024 --param groups=3 -o c1060.csv --wide > c1060.txt
grep -Eq "; (CAMPING|no camping) \(worst .* 8 partitions in profile tesla_c1060\)" c1060.txt && pass "verdict with partitions" || fail "C1060 summary: $(cat c1060.txt)"
# --quick fits the H100's 528 groups (it once refused them): the quick size
# (one for every device now) leaves each group at least one 16 KiB row
expect_status 0 "--quick with 528 groups" run camping --quick -q -d $POCL -n 1 --warmup 0 -t float --param groups=528 --param max_distance=0 -o many.csv
rows camping-many many.csv && pass "quick size fits 528 groups" || fail "quick size for 528 groups"
# refused
expect_error 2 "base 250 B is not a multiple of the double" "base not a multiple of the element" run camping --quick -q -d $POCL -t double --param base=250 -o bad.csv
expect_error 2 "groups: value 0" "groups=0" run camping --quick -q -d $POCL --param groups=0 -o bad.csv
expect_error 2 "less than one 16384-byte row" "size too small" run camping -q -d $POCL -s 1000 -o bad.csv
expect_error 2 "more than the 256 work-items" "base wider than a work-group" run camping --quick -q -d $POCL -t float --param base=2048 -o bad.csv
# a kernel that writes one element off must fail validation (exit 1)
mkdir -p broken && cp "$CLBENCH_SRC"/cl/*.cl broken/
sed -i 's/+ c\] = v\[u\]/+ c + 1] = v[u]/' broken/camping.cl
grep -q "c + 1\] = v" broken/camping.cl && pass "kernel broken for the test" || fail "sed did not apply"
expect_status 1 "broken kernel detected" run camping --quick -q -d $POCL -n 1 --warmup 0 -t float --param max_distance=256 --kernel-dir broken -o broken.csv
finish
