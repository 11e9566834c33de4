#!/usr/bin/env bash
# The guarded output file (docs/RESULTS.md, docs/RELIABILITY.md): a results
# file truncated, replaced or deleted while a run writes it is noticed before
# the next append (size, inode, link count); the run stops with one line and
# exit 5, never writes a row to a file without its header, and does not end
# with "results in FILE". The injector stops the run (SIGSTOP) at the first
# kernel build after stream's rows are written; the test changes the file and
# lets the run go on (SIGCONT).
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
# (each program is built when its workload asks, so the pause at a build
# number falls between stream's rows and copy2d's)
ARGS=(run stream,copy2d --quick -d $POCL -t float -n 2 --warmup 0)

# How many programs stream builds: the pause comes at the next build (copy2d's).
CLBENCH_FAULT_COUNTS="$TMP/c" LD_PRELOAD="$PRELOAD" "$CLBENCH" run stream --quick -d $POCL -t float \
  -n 1 --warmup 0 -q -o count.csv >/dev/null 2>&1
builds=$(awk '$1 == "clBuildProgram" {print $2}' "$TMP/c")
[ -n "$builds" ] || { fail "no build count"; finish; }

# guarded CASE ACTION: run, pause, ACTION on g-CASE.csv, go on; RC, ERR_TXT, OUT_TXT.
guarded() {
  local name=$1 action=$2 out="g-$1.csv"
  rm -f "$TMP/pause.log"
  set +e
  CLBENCH_PAUSE=clBuildProgram:$((builds + 1)) CLBENCH_FAULT_LOG="$TMP/pause.log" LD_PRELOAD="$PRELOAD" \
    "$CLBENCH" "${ARGS[@]}" -o "$out" >"$TMP/stdout" 2>"$TMP/stderr" &
  local pid=$! i
  for i in $(seq 600); do grep -q pauses "$TMP/pause.log" 2>/dev/null && break; sleep 0.05; done
  [ "$(wc -l < "$out")" -ge 2 ] || echo "not yet: $(wc -l < "$out") lines" >&2
  LINES_AT_PAUSE=$(wc -l < "$out")
  eval "$action"
  kill -CONT "$pid"
  wait "$pid"
  RC=$?
  set -e
  OUT_TXT=$(cat "$TMP/stdout")
  ERR_TXT=$(cat "$TMP/stderr")
}

# expect_guard CASE WORD: exit 5, one line naming the file and what happened,
# no "results in" claim
expect_guard() {
  local name=$1 word=$2
  if [ "$LINES_AT_PAUSE" -lt 2 ]; then fail "$name: the run paused before its first row"; return; fi
  [ "$RC" -eq 5 ] && pass "$name: exit 5" || fail "$name: exit $RC, expected 5: $ERR_TXT"
  echo "$ERR_TXT" | grep -q "^clbench: results file 'g-$name.csv' was $word" &&
    pass "$name: said: $(echo "$ERR_TXT" | grep "^clbench: results file" | head -1)" ||
    fail "$name: stderr: $ERR_TXT"
  # (the summary wraps at words: its lines joined)
  echo "$OUT_TXT" | tr -s ' \n' '  ' | grep -q "results in g-$name" && fail "$name: still says 'results in'" ||
    pass "$name: no 'results in' for a file that is not the run's any more"
}

# truncated to nothing: no row is written without its header
guarded truncated ': > g-truncated.csv'
expect_guard truncated truncated
[ ! -s g-truncated.csv ] && pass "truncated: the file stays empty (no row without a header)" ||
  fail "truncated: $(head -c 300 g-truncated.csv)"

# truncated to its header: the rows are gone, the size says so
guarded cut 'head -1 g-cut.csv > g-cut.tmp && cat g-cut.tmp > g-cut.csv'
expect_guard cut truncated
[ "$(wc -l < g-cut.csv)" -eq 1 ] && pass "cut: nothing appended" || fail "cut: $(wc -l < g-cut.csv) lines"

# replaced by another file (a new inode at the name)
guarded replaced 'printf "precious\n" > other && mv other g-replaced.csv'
expect_guard replaced replaced
[ "$(cat g-replaced.csv)" = precious ] && pass "replaced: the new file untouched" || fail "replaced: changed"

# deleted: not recreated, and the run does not claim it holds the rows
guarded deleted 'rm g-deleted.csv'
expect_guard deleted deleted
[ ! -e g-deleted.csv ] && pass "deleted: not recreated" || fail "deleted: the file is back"

# untouched: the same run ends normally with all its rows
guarded plain ':'
[ "$RC" -eq 0 ] && [ "$(wc -l < g-plain.csv)" -gt "$LINES_AT_PAUSE" ] &&
  pass "unchanged file: exit 0, rows after the pause appended" || fail "plain: exit $RC: $ERR_TXT"
finish
