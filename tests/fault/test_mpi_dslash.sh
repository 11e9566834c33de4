#!/usr/bin/env bash
# dslash and cg split over MPI ranks (scaling=strong|weak) on PoCL, every rank
# on the one CPU device: 1, 2 and 3 ranks along t on 8x8x8x10 (3 ranks: local
# t extents 4, 3, 3, so one part starts at an odd t), 2 ranks along z
# (exchange=bulk), 3 along z of 8x8x10x8 (4, 3, 3; exchange=shm, 1 KiB
# chunks), 8 along y, z and t of 4x6x6x8, weak 8x8x8x4 per rank; every row
# validates against the float64 reference of the whole lattice (each rank its
# part, the packed halos against the host's slabs), the aggregate's bytes and
# flops are the ranks' sums, each rank counts its own sites, cg takes the same
# iterations and reaches the same true residual whatever the split (the
# distributed operator is the single-rank one of the same global lattice); a
# kernel that reads the wrong halo, or packs the wrong slices, fails
# validation; a lattice that cannot be split is refused with one line; a
# fault on rank 1 in the middle of the exchanges (a kernel, a halo read)
# ends the job with rank 1 named, never a hang. (See mpi_lib.sh for the Open
# MPI options.)
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
source "$(dirname "$0")/mpi_lib.sh"
COMMON=(-d $POCL -t float --param rhs=1,2 --param kernels=reg --param links=compressed
        --param mass=4 -n 3 --warmup 1)

# rows: every one ok; per configuration the ranks' rows then the aggregate;
# sums; each rank's flops from its own part (part=) and the per-site counts
check_rows() { # file ranks [aggregate rows, default 4: dslash and cg, rhs 1 and 2]
  python3 - "$1" "$2" "${3:-4}" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n = int(sys.argv[2])
assert rows and all(r["status"] == "ok" for r in rows), [(r["rank"], r["status"], r["detail"][-200:]) for r in rows if r["status"] != "ok"]
aggs = [i for i, r in enumerate(rows) if r["rank"] == "all"]
assert len(aggs) == int(sys.argv[3]), len(aggs)
for i in aggs:
    a, mine = rows[i], rows[i - n:i]
    assert [r["rank"] for r in mine] == [str(k) for k in range(n)], [r["rank"] for r in mine]
    assert all(r["workload"] == a["workload"] and r["kernel"] == a["kernel"] for r in mine)
    for col in ("bytes", "flops"):
        assert int(a[col]) == sum(int(r[col]) for r in mine), (col, a[col], [r[col] for r in mine])
    for r in mine:
        p = dict(kv.split("=") for kv in r["params"].split(","))
        lx, ly, lz, lt = map(int, p["part"].split("x"))
        sites, rhs = lx * ly * lz * lt // 2, int(p["rhs"])
        if r["workload"] == "dslash":
            assert int(r["flops"]) == 1146 * rhs * sites, (r["flops"], sites)
            assert int(r["bytes"]) == (1024 + 408 * rhs) * sites, (r["bytes"], sites)
        else:
            its = [int(x) for x in p["iters"].split(":")]
            its = its * rhs if len(its) == 1 else its
            assert int(r["flops"]) == (sum(its) * (2 * 1146 + 72) + 12 * rhs) * sites, r["flops"]
        for key in ("halo_ms=", "halo_model_ms=", "halo_bytes=", "halo_exposed_ms="):
            assert key in r["detail"], (key, r["detail"])
        m = dict(kv.split("=") for kv in r["metrics"].split(";"))
        for key in ("halo_ms", "halo_model_ms", "halo_exposed_ms", "eff", "eff_model"):
            assert key in m, (key, r["metrics"])
        # a message step between ranks is measured on its own
        assert ("mpi_gbps" in m or "mpi_notes_us" in m) == (n > 1), r["metrics"]
PY
}

# run_job NAME RANKS ARGS...: one job; its exit status in RC (one OpenMP
# thread a rank: 8 ranks share the 2 cores)
run_job() {
  local name=$1 n=$2; shift 2
  set +e
  OMP_NUM_THREADS=1 "${MPIRUN[@]}" -np "$n" "${RUNENV[@]}" -x OMP_NUM_THREADS "$CLBENCH" run "$@" \
    -o "$name.csv" >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?; set -e
}

for n in 1 2 3; do
  set +e
  "${MPIRUN[@]}" -np $n "${RUNENV[@]}" "$CLBENCH" run dslash,cg "${COMMON[@]}" -s 8x8x8x10 \
    --param scaling=strong -o strong$n.csv >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?; set -e
  [ $RC -eq 0 ] && pass "strong 8x8x8x10 over $n rank(s): exit 0" || fail "strong over $n: exit $RC: $(grep -v '^rank' "$TMP/stderr" | tail -n 4)"
  check_rows strong$n.csv $n && pass "strong over $n: rows ok, sums and per-rank counts" || fail "strong over $n: rows wrong"
  grep -q "dslash across ranks" "$TMP/stdout" && grep -q "cg across ranks" "$TMP/stdout" &&
    pass "strong over $n: the summary shows the halos" || fail "no halo summary: $(tail -n 12 "$TMP/stdout")"
done
# uneven: 4, 3, 3 slices of t
[ "$(csv_query strong3.csv "','.join(r['params'].split('part=')[1].split(',')[0] for r in rows[:3])")" = "8x8x8x4,8x8x8x3,8x8x8x3" ] &&
  pass "3 ranks: local t extents 4, 3, 3" || fail "3 ranks: parts $(csv_col strong3.csv params | head -3)"
# the same global lattice gives the same solve whatever the split: the same
# iterations, true residuals within the float rounding of other summation orders
same=$(python3 - strong1.csv strong2.csv strong3.csv <<'PY'
import csv, sys
runs = []
for f in sys.argv[1:]:
    got = {}
    for r in csv.DictReader(open(f)):
        if r["workload"] == "cg" and r["rank"] == "all":
            p = dict(kv.split("=") for kv in r["params"].split(","))
            res = [float(x) for x in r["detail"].split("true_res=")[1].split()[0].split(":")]
            got[p["rhs"]] = (p["iters"], res)
    runs.append(got)
ok = all(set(g) == set(runs[0]) for g in runs) and all(
    g[k][0] == runs[0][k][0] and all(abs(a / b - 1) < 0.1 for a, b in zip(g[k][1], runs[0][k][1]))
    for g in runs for k in g)
print("same" if ok else "differ", runs)
PY
)
[ "${same%% *}" = same ] && pass "cg over 1, 2, 3 ranks: the same iterations and true residuals ($same)" ||
  fail "cg differs by split: $same"

for n in 2 3; do
  set +e
  "${MPIRUN[@]}" -np $n "${RUNENV[@]}" "$CLBENCH" run dslash,cg "${COMMON[@]}" -s 8x8x8x4 \
    --param scaling=weak -o weak$n.csv >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?; set -e
  [ $RC -eq 0 ] && pass "weak 8x8x8x4 per rank, $n ranks: exit 0" || fail "weak $n: exit $RC: $(grep -v '^rank' "$TMP/stderr" | tail -n 4)"
  check_rows weak$n.csv $n && pass "weak $n: rows ok, sums and per-rank counts" || fail "weak $n: rows wrong"
  # the fewest halo bytes: z faces of 8x8x8x4 are half its t faces
  grep -q "grid=1x1x${n}x1,part=8x8x8x4" weak$n.csv && pass "weak $n: grid 1x1x${n}x1, parts 8x8x8x4" || fail "weak $n: $(csv_col weak$n.csv params | head -1)"
done

# z: 2 ranks (4, 4; the chain before pipelining), 3 ranks of z = 10 (4, 3, 3;
# MPI-3 shared-memory windows, chunks of 1 KiB); y, z and t: 8 ranks of
# 4x6x6x8 (parts 4x3x3x4); every split of a lattice solves as its one rank does
D1=(-d cpu -t float --param rhs=1 --param kernels=reg --param links=compressed -n 2 --warmup 1)
ONE=("${D1[@]}" --param mass=4)
run_job z2 2 dslash,cg "${ONE[@]}" -s 8x8x8x10 --param scaling=strong --param grid=1x1x2x1 --param exchange=bulk
[ $RC -eq 0 ] && check_rows z2.csv 2 2 && grep -q "grid=1x1x2x1,part=8x8x4x10" z2.csv &&
  pass "z over 2 ranks, exchange=bulk: rows ok" || fail "z2: exit $RC: $(grep -v '^rank' "$TMP/stderr" | tail -n 3)"
for n in 1 3; do
  run_job zu$n $n dslash,cg "${ONE[@]}" -s 8x8x10x8 --param scaling=strong --param grid=1x1x${n}x1 \
    --param exchange=shm --param chunk=1
  [ $RC -eq 0 ] && check_rows zu$n.csv $n 2 && pass "z of 10 over $n rank(s), exchange=shm: rows ok" ||
    fail "zu$n: exit $RC: $(grep -v '^rank' "$TMP/stderr" | tail -n 3)"
done
[ "$(csv_query zu3.csv "','.join(r['params'].split('part=')[1].split(',')[0] for r in rows[:3])")" = "8x8x4x8,8x8x3x8,8x8x3x8" ] &&
  pass "3 ranks: local z extents 4, 3, 3" || fail "3 ranks: parts $(csv_col zu3.csv params | head -3)"
for n in 1 8; do
  run_job yzt$n $n dslash,cg "${ONE[@]}" -s 4x6x6x8 --param scaling=strong \
    --param grid=$([ $n = 1 ] && echo 1x1x1x1 || echo 1x2x2x2)
  [ $RC -eq 0 ] && check_rows yzt$n.csv $n 2 && pass "y, z and t over $n rank(s): rows ok" ||
    fail "yzt$n: exit $RC: $(grep -v '^rank' "$TMP/stderr" | tail -n 3)"
done
same_cg() { # files of one global lattice: cg's iterations and true residuals agree
  python3 - "$@" <<'PY'
import csv, sys
got = []
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        p = dict(kv.split("=") for kv in r["params"].split(","))
        if r["workload"] == "cg" and r["rank"] == "all" and p["rhs"] == "1":
            res = float(r["detail"].split("true_res=")[1].split()[0])
            got.append((p["iters"], res))
assert len(got) == len(sys.argv) - 1 and all(g[0] == got[0][0] and abs(g[1] / got[0][1] - 1) < 0.1 for g in got), got
PY
}
same_cg z2.csv strong1.csv && pass "cg along z: as one rank" || fail "cg z2 differs from one rank"
same_cg zu1.csv zu3.csv && pass "cg along z (4, 3, 3): as one rank" || fail "cg zu3 differs from one rank"
same_cg yzt1.csv yzt8.csv && pass "cg along y, z and t: as one rank" || fail "cg yzt8 differs from one rank"

# a pack kernel that packs the wrong slices: fails validation on every rank,
# the packed halos named against the host's slabs
mkdir -p kern && cp "$CLBENCH_SRC"/cl/*.cl kern/
sed -i 's/int first = side ? 0 : lmu - 3;/int first = side ? 0 : lmu - 4;/' kern/dslash.cl
grep -q "lmu - 4;" kern/dslash.cl || fail "the planted pack fault did not apply"
run_job badpack 2 dslash "${D1[@]}" -s 8x8x8x8 --param scaling=weak --kernel-dir kern
[ $RC -eq 1 ] && [ "$(csv_query badpack.csv "' '.join(sorted({r['status'] for r in rows}))")" = failed ] &&
  csv_col badpack.csv detail | grep -q "packed halo (halo_pack) differs" &&
  pass "a wrong pack offset fails every rank, the slab named" || fail "badpack: exit $RC"

# a kernel whose forward halo reads the backward one: both workloads fail validation (exit 1)
cp "$CLBENCH_SRC"/cl/*.cl kern/
sed -i 's/(side == 2 ? n \* slab : 0u)/(side == 2 ? 0u : 0u)/' kern/dslash.cl
grep -q "(side == 2 ? 0u : 0u)" kern/dslash.cl || fail "the planted halo fault did not apply"
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" "$CLBENCH" run dslash,cg -d $POCL -t float -s 8x8x8x8 --param rhs=1 \
  --param kernels=reg --param iters=20 --param scaling=strong -n 1 --warmup 0 --kernel-dir kern \
  -o wrong.csv >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 1 ] && pass "a wrong halo: exit 1" || fail "wrong halo: exit $RC: $(grep -v '^rank' "$TMP/stderr" | tail -n 3)"
st=$(csv_query wrong.csv "' '.join(sorted({r['workload'] + ':' + r['status'] for r in rows}))")
[ "$st" = "cg:failed dslash:failed" ] && pass "a wrong halo fails dslash and cg on every rank" || fail "statuses: $st"
csv_col wrong.csv detail | grep -q "even sites wrong (first at x=" && pass "dslash names the first wrong site" || fail "no wrong site in detail"

# cannot split 8 slices over 3 ranks (3, 3, 2): one line, exit 2
set +e
"${MPIRUN[@]}" -np 3 "${RUNENV[@]}" "$CLBENCH" run dslash -d $POCL -t float -s 8x8x8x8 --param scaling=strong \
  -o refused.csv >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 2 ] && [ "$(grep -c '^clbench:' "$TMP/stderr")" -eq 1 ] && grep -q "local t extents 3,3,2.*>= 3" "$TMP/stderr" &&
  pass "8 slices over 3 ranks refused: one line naming 3,3,2, exit 2" || fail "refusal: exit $RC: $(grep '^clbench' "$TMP/stderr")"

# an OpenCL error on rank 1 between exchanges: the job ends (exit 3), rank 1 named, no hang
export AT=$((60 + TIMER_LAUNCHES))
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" -x CLFAULT -x PRELOAD -x AT bash -c \
  'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export LD_PRELOAD="$PRELOAD" CLBENCH_FAULT=clEnqueueNDRangeKernel:$AT; fi
   exec "$0" "$@"' "$CLBENCH" run cg -d $POCL -t float -s 8x8x8x8 --param rhs=1 --param mass=4 \
  --param scaling=strong -n 2 --warmup 1 -o fault.csv >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 3 ] && grep -q "rank 1 (.*): .*clEnqueueNDRangeKernel" "$TMP/stderr" &&
  pass "a fault on rank 1 mid-solve: exit 3, rank 1 named" || fail "fault on rank 1: exit $RC: $(grep '^clbench' "$TMP/stderr" | head -2)"
# a halo read to the host failing on rank 1 in the middle of the timed
# exchanges: its peer still gets every chunk (no hang), the job ends, rank 1 named
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" -x CLFAULT -x PRELOAD bash -c \
  'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export LD_PRELOAD="$PRELOAD" CLBENCH_FAULT=clEnqueueReadBuffer:12; fi
   exec "$0" "$@"' "$CLBENCH" run dslash "${D1[@]}" -s 8x8x8x8 --param scaling=weak \
  --param chunk=1 -n 4 -o readfault.csv >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 3 ] && grep -q "rank 1 (.*): .*clEnqueueReadBuffer (halo to the host)" "$TMP/stderr" &&
  pass "a halo read failing on rank 1 mid-exchange: exit 3, rank 1 named" ||
  fail "read fault on rank 1: exit $RC: $(grep '^clbench' "$TMP/stderr" | head -2)"
finish
