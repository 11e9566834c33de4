#!/usr/bin/env bash
# cg on PoCL (--quick 8^4): solves to tol for float and double, rhs 1 and 3,
# full and compressed long links, validated by the true residual on the host;
# rows counted from their params; the fixed-iteration mode with one count per
# rhs (the converged-rhs mask); the cache kernel; bad parameters refused with
# one line; planted wrong kernels (a wrong xpay, a wrong operator sign) fail
# with the true residual in the detail, exit 1.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "cg --quick: float, double; rhs 1, 3; full, compressed" \
  run cg -d $POCL --quick -n 1 --warmup 1 --param links=full,compressed -o out.csv
expect_rows out.csv cg reg float,double
echo "$OUT_TXT" | grep -q "cg solver GFlop/s" && pass "summary of the solver rates" || fail "no cg summary: $OUT_TXT"
# 8 rows; flops and bytes from the params by the counts of [Wagner15]; the detail
rows cg-rows out.csv && pass "8 rows, counts from params, true residual and timings in detail" || fail "cg rows wrong"
# the cache kernel and the fixed-iteration mode, one count per rhs: rhs 1
# stops after 10 iterations (masked), the float64 host CG's residuals are
# the targets
expect_status 0 "cg fixed iters=20:10:15, reg and cache" run cg -d $POCL --quick -t float,double \
  --param rhs=3 --param iters=20:10:15 --param kernels=reg,cache --param links=compressed \
  -n 1 --warmup 1 -o fixed.csv
expect_rows fixed.csv cg reg,cache float,double
rows cg-fixed fixed.csv && pass "fixed mode: params, counts and residuals per rhs" || fail "fixed mode rows wrong"
expect_status 0 "cg fixed iters=6 with full links" run cg -d $POCL --quick -t float --param rhs=1,3 \
  --param iters=6 --param links=full -n 1 --warmup 0 -o six.csv
expect_rows six.csv cg reg float
# bad parameters: exit 2, one line
expect_error 2 "mass: '0' is not a number" "mass 0 refused" run cg -d $POCL --quick --param mass=0 -o bad.csv
expect_error 2 "mass: 'heavy'" "mass text refused" run cg -d $POCL --quick --param mass=heavy -o bad.csv
expect_error 2 "tol: 1e-09 is below float precision" "float tol 1e-9 refused" run cg -d $POCL --quick -t float --param tol=1e-9 -o bad.csv
expect_error 2 "tol: '2' is not a number in \(0, 1\)" "tol 2 refused" run cg -d $POCL --quick --param tol=2 -o bad.csv
expect_error 2 "maxiter" "maxiter 0 refused" run cg -d $POCL --quick --param maxiter=0 -o bad.csv
expect_error 2 "iters: '0' is not an iteration count" "iters 0 refused" run cg -d $POCL --quick --param iters=0 -o bad.csv
expect_error 2 "iters: '5:5' gives 2 counts.*rhs=1" "iters list against rhs refused" run cg -d $POCL --quick --param iters=5:5 -o bad.csv
expect_error 2 "local: 48 is not a power of two" "local 48 refused" run cg -d $POCL --quick --param local=48 -o bad.csv
expect_error 2 "rhs" "rhs 9 refused" run cg -d $POCL --quick --param rhs=9 -o bad.csv
expect_error 2 "links: unknown value 'half'" "bad links refused" run cg -d $POCL --quick --param links=half -o bad.csv
expect_error 2 "kernels: unknown value 'fast'" "bad kernel refused" run cg -d $POCL --quick --param kernels=fast -o bad.csv
expect_error 2 "extent 7 in direction x.*even" "odd extent refused" run cg -d $POCL -s 7x8x8x8 -o bad.csv
# planted wrong kernels: the row fails (exit 1) with the true residual in the
# detail. xpay: p = r - beta p (CG stalls; its own residual says so too);
# mass: the operator's m^2 doubled (CG converges, to the wrong system: its
# own residual reaches tol, only the true residual shows the error)
mkdir -p xpay mass && cp "$CLBENCH_SRC"/cl/*.cl xpay/ && cp "$CLBENCH_SRC"/cl/*.cl mass/
sed -i 's/p\[k\] = r\[k\] + beta \* pv;/p[k] = r[k] - beta * pv;/' xpay/dslash.cl
sed -i 's/T2 a = m2 \* pv - acc\[3 \* r + c\];/T2 a = (T)2 * m2 * pv - acc[3 * r + c];/' mass/dslash.cl
cmp -s xpay/dslash.cl "$CLBENCH_SRC/cl/dslash.cl" && fail "the xpay plant did not change the kernel"
cmp -s mass/dslash.cl "$CLBENCH_SRC/cl/dslash.cl" && fail "the mass plant did not change the kernel"
for plant in xpay mass; do
  expect_status 1 "wrong kernel ($plant) fails validation" run cg -d $POCL --quick -t float \
    --param rhs=1 --param links=full --param maxiter=60 -n 1 --warmup 0 --kernel-dir $plant -o $plant.csv
  csv_col $plant.csv status | grep -qx failed && pass "$plant: row failed" || fail "$plant: row not failed"
  csv_col $plant.csv detail | grep -q "true residual |b - Ax|/|b| = .* above 10 x .*eps x [0-9]* iterations" \
    && pass "$plant: true residual in detail" || fail "$plant: no true residual in detail: $(csv_col $plant.csv detail)"
done
rows cg-mass-plant mass.csv && pass "mass plant: the device's own residual converged, the true one did not" || fail "mass plant: residuals not as expected"
# scaling= in one process (the halos along t exchanged with itself; 2 and 3
# ranks: tests/fault/test_mpi_dslash.sh): a solve to tol and a fixed-iteration
# solve against the split float64 host CG
expect_status 0 "cg scaling=weak, one process" run cg -d $POCL --quick -t float,double --param rhs=1,3 \
  --param scaling=weak -n 1 --warmup 1 -o scal.csv
expect_rows scal.csv cg reg float,double
expect_status 0 "cg scaling=strong, fixed iterations" run cg -d $POCL --quick -t double --param rhs=2 \
  --param iters=12:8 --param scaling=strong -n 1 --warmup 0 -o scalfix.csv
expect_rows scalfix.csv cg reg double
rows cg-scaling scal.csv scalfix.csv && pass "scaling rows: params, counts, halo notes" || fail "cg scaling rows wrong"
expect_error 2 "scaling: 'x' is not strong or weak|scaling=x" "bad scaling refused" run cg -d $POCL --quick --param scaling=x -o bad.csv
# regcache (k rhs per work-item) validated, its k in the params; with stream
# first, the talk's baseline: of_stream_triad
expect_status 0 "cg regcache after stream" run stream,cg -d $POCL --quick -t float --param rhs=4 \
  --param links=compressed --param cg.kernels=regcache --param stream.kernels=triad -n 1 --warmup 1 -o rc.csv
expect_rows rc.csv cg regcache float
rows cg-regcache rc.csv && pass "regcache row: k=2, of_stream_triad" || fail "regcache row wrong"
"$CLBENCH" cg --help --wide | grep -q "baselines: stream/triad" && pass "help lists stream/triad" ||
  fail "cg --help does not list stream/triad"
finish
