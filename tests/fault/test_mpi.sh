#!/usr/bin/env bash
# MPI every-rank mode on PoCL (every rank shares the one CPU device, which
# clbench allows with a warning): 1, 2 and 3 ranks give per-rank rows and one
# aggregate row per configuration (rank=all: bytes summed, each repetition the
# slowest rank's); a fault or a wrong result on one rank ends the whole job
# with one message naming that rank and the agreed exit status, the rows
# measured before kept, never a hang; a driver call that hangs on one rank
# ends the job after --case-timeout with that rank named and the job's error
# row. (mpi_lib.sh: the Open MPI options.)
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
source "$(dirname "$0")/mpi_lib.sh"

for n in 1 2 3; do
  set +e
  "${MPIRUN[@]}" -np $n "${RUNENV[@]}" "$CLBENCH" run stream,dot --quick -d $POCL -t float -n 3 \
    --param dot.kernels=device,cpu -o np$n.csv >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?; set -e
  [ $RC -eq 0 ] && pass "$n rank(s): exit 0" || fail "$n rank(s): exit $RC: $(tail -n 5 "$TMP/stderr")"
  python3 - np$n.csv $n <<'PY' && pass "$n rank(s): per-rank rows and aggregates add up" || fail "$n rank(s): rows wrong"
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
n = int(sys.argv[2])
by = collections.defaultdict(list)
for r in rows:
    by[(r["workload"], r["kernel"], r["params"] if r["rank"] == "all" else None)].append(r)
configs = [r for r in rows if r["rank"] == "all"]
assert configs, "no aggregate rows"
for a in configs:
    mine = [r for r in rows if r["rank"] != "all" and r["workload"] == a["workload"] and
            r["kernel"] == a["kernel"] and r["dtype"] == a["dtype"] and r["size"] == a["size"] and
            r["run_id"] == a["run_id"] and rows.index(r) < rows.index(a) and rows.index(r) >= rows.index(a) - n]
    assert sorted(r["rank"] for r in mine) == [str(i) for i in range(n)], (a["kernel"], [r["rank"] for r in mine])
    assert all(int(r["ranks"]) == n for r in mine + [a]) and a["status"] == "ok"
    assert int(a["bytes"]) == sum(int(r["bytes"]) for r in mine), (a["bytes"], [r["bytes"] for r in mine])
    # each repetition lasts the slowest rank's: the aggregate median is not below any rank's
    assert float(a["t_median_s"]) >= max(float(r["t_median_s"]) for r in mine) * 0.999999
    assert abs(float(a["gbps"]) - int(a["bytes"]) / float(a["t_median_s"]) / 1e9) <= 1e-3 * float(a["gbps"]) + 1e-6
PY
  grep -q "^rank 0: " "$TMP/stderr" && [ "$(grep -c '^rank [0-9]*: ' "$TMP/stderr")" -eq $n ] &&
    pass "$n rank(s): rank 0 names each rank's host and device" || fail "$n rank(s): rank map: $(head -n 5 "$TMP/stderr")"
  [ $n -gt 1 ] && { grep -q "shared with another rank" "$TMP/stderr" && pass "$n ranks on one device: warned" || fail "no sharing warning"; }
  [ "$(grep -c '^\[' "$TMP/stderr")" -eq "$(csv_query np$n.csv "sum(r['rank'] == 'all' for r in rows)")" ] &&
    pass "$n rank(s): progress from rank 0 only" || fail "$n rank(s): progress lines: $(grep -c '^\[' "$TMP/stderr")"
done

# an OpenCL error on rank 1 only: the job ends (exit 3), one message names rank 1
# (stream's 12th launch: in its vector-width probe)
export AT=$((12 + TIMER_LAUNCHES))
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" -x CLFAULT -x PRELOAD -x AT bash -c \
  'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export LD_PRELOAD="$PRELOAD" CLBENCH_FAULT=clEnqueueNDRangeKernel:$AT; fi
   exec "$0" "$@"' "$CLBENCH" run stream --quick -d $POCL -t float -n 3 --warmup 1 -o fault.csv \
  >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 3 ] && pass "a fault on rank 1: the job exits 3" || fail "fault on rank 1: exit $RC: $(tail -n 4 "$TMP/stderr")"
grep -q "rank 1 (.*): .*clEnqueueNDRangeKernel" "$TMP/stderr" && pass "the message names rank 1 and the call" ||
  fail "no rank-1 message: $(grep clbench "$TMP/stderr" | head -3)"
n=$(csv_check fault.csv) && pass "fault.csv parses ($n rows kept)" || fail "fault.csv broken"

# a wrong element on rank 1 only: rank 1's row and the aggregate failed, rank 0's ok, exit 1
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" -x PRELOAD bash -c \
  'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export LD_PRELOAD="$PRELOAD" CLBENCH_CORRUPT=1; fi
   exec "$0" "$@"' "$CLBENCH" run stream --quick -d $POCL -t float -n 3 -o corrupt.csv \
  >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 1 ] && pass "a wrong result on rank 1: exit 1" || fail "corrupt on rank 1: exit $RC: $(tail -n 3 "$TMP/stderr")"
st=$(csv_query corrupt.csv "' '.join(r['rank'] + ':' + r['status'] for r in rows[:3])")
[ "$st" = "0:ok 1:failed all:failed" ] && pass "copy: rank 0 ok, rank 1 failed, aggregate failed" || fail "statuses: $st"

# a driver call that hangs on rank 1 in the second size's first case: the
# watchdog ends the job (exit 6); rank 0 writes the job's error row for the
# step (rank=all, 'timeout: ...'); the 12 rows of the first size stay whole
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" -x PRELOAD bash -c \
  'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export LD_PRELOAD="$PRELOAD" CLBENCH_HANG=clWaitForEvents:23; fi
   exec "$0" "$@"' "$CLBENCH" run stream -d $POCL -t float -s 4096,8192 -n 5 --warmup 0 \
  --param vec=4 --case-timeout 3 -o hang.csv >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 6 ] && pass "a hang on rank 1: the job exits 6" || fail "hang on rank 1: exit $RC: $(tail -n 4 "$TMP/stderr")"
grep -q "timeout: stream copy float 8192 .* on rank 1 of 2" "$TMP/stderr" &&
  pass "rank 1 names itself and the step" || fail "no rank-1 timeout line: $(grep clbench "$TMP/stderr" | head -3)"
n=$(csv_check hang.csv) && [ "$n" -eq 13 ] && pass "hang.csv: the 12 rows before the hang and one more" ||
  fail "hang.csv: ${n:-no} rows"
last=$(csv_query hang.csv "' '.join([rows[-1]['rank'], rows[-1]['status'], rows[-1]['kernel'], rows[-1]['size'], rows[-1]['detail'][:9]])")
[ "$last" = "all error copy 8192 timeout: " ] && pass "the job's error row for the step: $last" ||
  fail "last row: $last"

# a bad option on every rank: one message, exit 2
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" "$CLBENCH" run stream --quick -d $POCL --param vec=3 -o bad.csv \
  >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 2 ] && [ "$(grep -c '^clbench:' "$TMP/stderr")" -eq 1 ] && pass "a bad parameter: exit 2, one message" ||
  fail "bad parameter: exit $RC: $(grep '^clbench' "$TMP/stderr")"
finish
