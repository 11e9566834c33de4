#!/usr/bin/env bash
# One process drives several devices (--devices-per-rank; docs/SCALING.md "One
# process, several devices"), on PoCL's CPU device listed N times
# (POCL_DEVICES="pthread pthread"): every device a rank on its own thread.
# stream gives per-device and aggregate rows as ranks do; dslash and cg split
# over 1 process x 2 devices, 1 x 3 along y, z and t (10 slices: 4, 3, 3) and
# 2 MPI ranks x 2 devices give the one-device result of the same global
# lattice bit for bit (w_hash: every site's output), cg the same iterations;
# each row names the path of each halo (node between devices of a process,
# mpi between processes); a kernel that reads the wrong halo fails
# validation; --devices-per-rank beyond the devices is refused in one line.
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
ONE=(-t float --param rhs=1,2 --param kernels=reg --param links=compressed --param mass=4
     -n 2 --warmup 1)

# runp NAME DEVICES ARGS...: clbench on DEVICES PoCL devices, rows in NAME.csv; status in RC
runp() {
  local name=$1 n=$2; shift 2
  local devs; devs=$(printf 'pthread %.0s' $(seq "$n"))
  set +e
  POCL_DEVICES="$devs" OMP_NUM_THREADS=1 timeout 300 "$CLBENCH" run "$@" -o "$name.csv" \
    >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?; set -e
}
say() { tail -n 4 "$TMP/stderr"; }

# stream: each device's row, then the aggregate (ranks 2, the sums)
runp stream 2 stream -d cpu --devices-per-rank 2 --quick -t float -n 3
[ $RC -eq 0 ] && rows node-aggregates stream.csv 2 && pass "stream, 1 process x 2 devices: per-device rows and aggregates" ||
  fail "stream: exit $RC: $(say)"

# one device (the reference), then 2 devices along z of 8x8x10x8 (5, 5: an odd part)
runp ref 1 dslash,cg -d cpu "${ONE[@]}" -s 8x8x10x8 --param scaling=strong
runp z2 2 dslash,cg -d cpu --devices-per-rank 2 "${ONE[@]}" -s 8x8x10x8 --param scaling=strong \
  --param grid=1x1x2x1
[ $RC -eq 0 ] && rows node-split z2.csv ref.csv 2 node && pass "1 x 2 along z: rows ok, halos node, bit for bit as one device" ||
  fail "z2: exit $RC: $(say)"

# three devices, uneven (4, 3, 3), along y, z and t in turn
runp ref3 1 dslash,cg -d cpu "${ONE[@]}" -s 4x10x10x10 --param scaling=strong
for g in 1x3x1x1 1x1x3x1 1x1x1x3; do
  runp u$g 3 dslash,cg -d cpu --devices-per-rank 3 "${ONE[@]}" -s 4x10x10x10 \
    --param scaling=strong --param grid=$g
  [ $RC -eq 0 ] && rows node-split u$g.csv ref3.csv 3 node && pass "1 x 3 on grid $g (4, 3, 3): bit for bit as one device" ||
    fail "u$g: exit $RC: $(say)"
done

# 2 MPI ranks x 2 devices (the CPU device shared): halos node within a process, mpi between
if command -v mpirun >/dev/null 2>&1 && ldd "$CLBENCH" | grep -q libmpi; then
  set +e
  POCL_DEVICES="pthread pthread" OMP_NUM_THREADS=1 timeout 300 mpirun --allow-run-as-root \
    --oversubscribe -np 2 -x POCL_DEVICES -x OMP_NUM_THREADS -x ASAN_OPTIONS -x LSAN_OPTIONS \
    -x CLBENCH_PLATFORMS -x OMPI_MCA_btl_vader_single_copy_mechanism=none "$CLBENCH" run dslash,cg \
    -d cpu --devices-per-rank 2 "${ONE[@]}" -s 8x8x8x12 --param scaling=strong --param grid=1x1x1x4 \
    -o m22.csv >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?; set -e
  runp ref12 1 dslash,cg -d cpu "${ONE[@]}" -s 8x8x8x12 --param scaling=strong
  [ $RC -eq 0 ] && rows node-split m22.csv ref12.csv 4 node+mpi &&
    pass "2 ranks x 2 devices: halos node and mpi, bit for bit as one device" ||
    fail "2 x 2: exit $RC: $(say)"
else
  fail "2 ranks x 2 devices not run: no mpirun, or clbench built without MPI"
fi

# a kernel whose forward halo reads the backward one: both workloads fail (exit 1)
mkdir -p kern && cp "$CLBENCH_SRC"/cl/*.cl kern/
sed -i 's/(side == 2 ? n \* slab : 0u)/(side == 2 ? 0u : 0u)/' kern/dslash.cl
grep -q "(side == 2 ? 0u : 0u)" kern/dslash.cl || fail "the planted halo fault did not apply"
runp wrong 2 dslash,cg -d cpu --devices-per-rank 2 -t float -s 8x8x8x8 --param rhs=1 \
  --param kernels=reg --param iters=20 --param scaling=strong -n 1 --warmup 0 --kernel-dir kern
st=$(csv_query wrong.csv "' '.join(sorted({r['workload'] + ':' + r['status'] for r in rows}))")
[ $RC -eq 1 ] && [ "$st" = "cg:failed dslash:failed" ] && pass "a wrong halo fails dslash and cg on both devices (exit 1)" ||
  fail "wrong halo: exit $RC, statuses $st"

# more devices a process than -d names: one line, exit 2
runp many 2 stream -d cpu --devices-per-rank 3 --quick
[ $RC -eq 2 ] && [ "$(grep -c '^clbench:' "$TMP/stderr")" -eq 1 ] && grep -q "devices-per-rank 3.*names 2 devices" "$TMP/stderr" &&
  pass "3 devices a process of 2: refused in one line (exit 2)" || fail "refusal: exit $RC: $(cat "$TMP/stderr")"
finish
