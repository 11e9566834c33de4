#!/usr/bin/env bash
# stream on PoCL at --quick sizes: every kernel and type validated, CSV rows ok.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "stream --quick" run stream --quick -d $POCL -o out.csv
expect_rows out.csv stream copy,scale,add,triad float,double
# an explicit vector-width sweep and an odd size (tail handled)
expect_status 0 "stream vec sweep, odd size" run stream --quick -d $POCL -t float -s 1000003 --param vec=1,2,4,8 -n 3 -o odd.csv
n=$(csv_col odd.csv params | sort -u | wc -l)
[ "$n" -eq 4 ] && pass "four vector widths" || fail "expected 4 vec values, got $n"
expect_rows odd.csv stream copy,scale,add,triad float
# the driver's own copy as a reference row, validated like copy; bad values refused
expect_status 0 "driver_copy=1" run stream --quick -d $POCL -n 2 --warmup 1 --param driver_copy=1 -o dc.csv
expect_rows dc.csv stream copy,scale,add,triad,copy_driver float,double
expect_error 2 "driver_copy: value 2" "driver_copy=2 refused" run stream --quick -q -d $POCL --param driver_copy=2 -o bad.csv
# appending keeps one header
expect_status 0 "append" run stream --quick -d $POCL -t double -n 2 -o out.csv
h=$(grep -c '^run_id,' out.csv)
[ "$h" -eq 1 ] && pass "one header after append" || fail "$h headers"
# summary table on stdout
"$CLBENCH" run stream --quick -q -d $POCL -t float -n 2 -o s.csv | grep -q "triad" && pass "summary table" || fail "no summary"
# a size above CL_DEVICE_MAX_MEM_ALLOC_SIZE is skipped with both numbers, the suite goes on;
# when every row was skipped nothing was measured: exit 4 (docs/MEASURING.md)
expect_status 4 "oversized buffer skipped, nothing measured" run stream -d $POCL -t float,double -s 2^40 -n 1 -o big.csv
rows stream-too-big big.csv && pass "skip row names the size and the limit" || fail "no skip row with both numbers"
# kernels from --kernel-dir: a broken kernel prints the build log and gives error rows (exit 3)
mkdir kd && cp "$CLBENCH_SRC/cl/common.cl" kd/ && printf '__kernel void copy(__global float *a) { a[0] = undefined_thing; }\n' > kd/stream.cl
expect_status 3 "broken kernel source" run stream --quick -d $POCL -t float --param vec=4 --kernel-dir kd -o broken.csv
echo "$ERR_TXT" | grep -q "build log of stream.cl" && pass "build log printed" || fail "no build log: $ERR_TXT"
echo "$ERR_TXT" | grep -q "undefined_thing" && pass "build log has the compiler's message" || fail "compiler message missing"
rows stream-build-error broken.csv && pass "error row names clBuildProgram and CL_BUILD_PROGRAM_FAILURE" || fail "no error row"
# the same sources from disk work through CLBENCH_KERNEL_DIR
CLBENCH_KERNEL_DIR="$CLBENCH_SRC/cl" expect_status 0 "CLBENCH_KERNEL_DIR" run stream --quick -d $POCL -t float -n 2 -o kd.csv
# [tuning] per type: stream.vec.double beats stream.vec for double, float keeps stream.vec
mkdir -p prof && cp "$CLBENCH_SRC/platforms/pocl_cpu.ini" prof/
printf '[tuning]\nstream.vec = 4\nstream.vec.double = 2\nstream.sizes.double = 4096\n' >>prof/pocl_cpu.ini
expect_status 0 "per-type tuning" run stream -d $POCL -t float,double --platforms-dir prof -n 1 \
  --min-time 0 -s 8192 -o pt.csv
# (-s names float's and double's size; without it the profile's per-type sizes apply)
expect_status 0 "per-type sizes" run stream -d $POCL -t double --platforms-dir prof -n 1 --min-time 0 -o ps.csv
rows stream-per-type pt.csv ps.csv && pass "vec 4 for float, 2 for double; double's size from stream.sizes.double" || fail "per-type tuning not applied"
# local2: add and triad at their own work-group size, once per shape
expect_status 0 "local2" run stream -d $POCL -t float -s 8192 -n 1 --min-time 0 --param vec=4 \
  --param local=32,64 --param local2=128 -o l2.csv
rows stream-local2 l2.csv && pass "copy/scale at local 32 and 64, add/triad once at 128" || fail "local2 rows wrong"
echo "$ERR_TXT" | grep -q "\[6/6\]" && pass "progress counts the 6 cases" || fail "progress total: $ERR_TXT"
# streaming stores and the device's first touch, at the driver's work-group, at
# 64 and at 48 (the last group partly idle): every row validated, nt=1 and
# init=device in its params
expect_status 0 "nt=0,1, init=device, local=0,64,48" run stream -d $POCL -t float,double --quick \
  -n 1 --min-time 0 --param vec=1,8 --param nt=0,1 --param init=device --param local=0,64,48 \
  --param kernels=copy,triad -o nt.csv
rows stream-nt nt.csv && pass "48 rows ok, half with nt=1" || fail "nt/init rows wrong"
# a compiler without the builtin (planted: the test reads 0): no kernel nt_stores, and
# the nt=1 cases are skipped with the reason, the nt=0 ones run
mkdir kx && cp "$CLBENCH_SRC/cl/common.cl" "$CLBENCH_SRC/cl/stream.cl" kx/
rows replace kx/stream.cl "__has_builtin(__builtin_nontemporal_store)" "0"
expect_status 0 "nt=1 without the builtin" run stream -d $POCL -t float --quick -n 1 --min-time 0 \
  --param vec=4 --param nt=0,1 --param kernels=copy --kernel-dir kx -o kx.csv
[ "$(csv_col kx.csv status | tr '\n' ' ')" = "ok skipped " ] && grep -q "has no streaming stores" kx.csv &&
  pass "nt=1 skipped where the compiler has no streaming stores" || fail "nt=1 rows: $(cat kx.csv)"
finish
