#!/usr/bin/env bash
# MPI: the ranks tune alike, and an aggregate sums only ranks that ran one
# configuration. stream's vec probe on 3 ranks sharing the CPU (their timings
# differ): every configuration's per-rank rows and its rank=all row carry the
# same params (before the probes agreed, 4 of 4 such runs had ranks that ran
# different widths under one aggregate). Ranks given different params on
# purpose (vec=4 on rank 0, vec=8 on rank 1): no rank=all row, every rank's
# rows, the configurations counted, and the summary says why. (See
# mpi_lib.sh for the Open MPI options.)
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
source "$(dirname "$0")/mpi_lib.sh"

# alike FILE RANKS: per configuration, the ranks' rows and the aggregate have
# one params; prints the aggregates checked
alike() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n = int(sys.argv[2])
aggs = [i for i, r in enumerate(rows) if r["rank"] == "all"]
assert aggs, "no aggregate rows"
for i in aggs:
    mine = rows[i - n:i]
    assert [r["rank"] for r in mine] == [str(k) for k in range(n)], [r["rank"] for r in mine]
    ps = {r["params"] for r in mine + [rows[i]]}
    assert len(ps) == 1, (rows[i]["kernel"], rows[i]["size"], sorted(ps))
print(len(aggs))
PY
}

set +e
"${MPIRUN[@]}" -np 3 "${RUNENV[@]}" "$CLBENCH" run stream -d $POCL -t float -s 65536,131072,262144 \
  -n 3 --warmup 1 -q -o probe.csv >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 0 ] && pass "3 ranks, the vec probe: exit 0" || fail "probe run: exit $RC: $(tail -n 4 "$TMP/stderr")"
k=$(alike probe.csv 3) && pass "3 ranks: the $k aggregates each over ranks that ran one params" ||
  fail "3 ranks: ranks ran different params under one aggregate: $k"
grep -q "^no aggregate" "$TMP/stdout" && fail "3 ranks: configurations without an aggregate" ||
  pass "3 ranks: every configuration has its aggregate"

# different params on purpose: no aggregate over them
set +e
"${MPIRUN[@]}" -np 2 "${RUNENV[@]}" bash -c \
  'v=4; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && v=8; exec "$0" "$@" --param vec=$v' \
  "$CLBENCH" run stream -d $POCL -t float -s 65536 -n 3 --warmup 1 -o unlike.csv \
  >"$TMP/stdout" 2>"$TMP/stderr"
RC=$?; set -e
[ $RC -eq 0 ] && pass "ranks given vec=4 and vec=8: exit 0" || fail "unlike run: exit $RC: $(tail -n 4 "$TMP/stderr")"
got=$(csv_query unlike.csv "[r['kernel'] + ':' + r['params'] for r in rows if r['rank'] == 'all']")
[ "$got" = "[]" ] && pass "no aggregate over unequal params" || fail "aggregates over unequal params: $got"
nrank=$(csv_query unlike.csv "sum(r['rank'] != 'all' for r in rows)")
[ "$nrank" -eq 8 ] && pass "every rank's rows kept ($nrank)" || fail "rank rows: $nrank"
grep -q "^job of all ranks: 4 ok, 0 failed" "$TMP/stdout" && pass "the 4 configurations counted" ||
  fail "counts: $(grep '^job of' "$TMP/stdout")"
why=$(awk '/^no aggregate:/ {p = 1; print; next} p && /^  / {print; next} {p = 0}' "$TMP/stdout" |
      sed 's/^  //' | tr '\n' ' ')   # the summary's line, wrapped to 100 columns
echo "$why" | grep -Eq "^no aggregate: 4 configurations without a rank=all row: the ranks ran different params \(first: stream copy float 65536: rank 0 vec=4[^ ]*, rank 1 vec=8" &&
  pass "the summary says why: $why" || fail "summary: $(tail -n 5 "$TMP/stdout")"
finish
