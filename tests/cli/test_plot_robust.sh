#!/usr/bin/env bash
# compare --plot when things go wrong (docs/COMPARE.md): a workload without a
# figure (every row skipped, failed or error) is skipped with one line and the
# others are drawn; SIGINT, SIGTERM or SIGHUP while gnuplot draws leaves no
# temporary file (beside the output or under $TMPDIR) and no gnuplot running.
source "$(dirname "$0")/lib.sh"
set -e
set -m   # job control: a background job gets SIGINT as a foreground one would
D="$CLBENCH_SRC/tests/data/compare"
export TMPDIR="$TMP/tmp"
mkdir -p "$TMPDIR"

# ---- a workload without a figure ------------------------------------------------------
rows plot-no-figure "$D/gpu.csv" nofig.csv
if command -v gnuplot >/dev/null; then
  run_cb compare nofig.csv --plot nofig.svg
  [ "$RC" -eq 0 ] && pass "a workload without a figure: exit 0" || fail "exit $RC: $ERR_TXT"
  [ "$(echo "$ERR_TXT" | grep -c '^clbench: .*transpose.*no figure')" -eq 1 ] &&
    pass "one line: $(echo "$ERR_TXT" | grep transpose)" || fail "stderr: $ERR_TXT"
  [ -s nofig-stream.svg ] && [ ! -e nofig-transpose.svg ] && pass "stream drawn, transpose not" ||
    fail "figures: $(ls nofig*)"
fi

# ---- interrupted while gnuplot draws -------------------------------------------------------
cat > slowgp <<EOF
#!/bin/sh
echo \$\$ > "$TMP/gp.pid"
exec sleep 60
EOF
chmod +x slowgp
for sig in INT TERM HUP; do
  rm -f "$TMP/gp.pid"
  mkdir "out-$sig"
  CLBENCH_GNUPLOT=$PWD/slowgp "$CLBENCH" compare "$D/gpu.csv" "$D/cpu.csv" --plot "out-$sig/fig.svg" \
    >/dev/null 2>"$TMP/stderr" &
  pid=$!
  for i in $(seq 200); do [ -s "$TMP/gp.pid" ] && break; sleep 0.05; done
  gp=$(cat "$TMP/gp.pid" 2>/dev/null || echo none)
  kill -"$sig" "$pid"
  set +e; wait "$pid"; rc=$?; set -e
  want=$((128 + $(kill -l "$sig")))
  [ "$rc" -eq "$want" ] && pass "SIG$sig: exit $rc" || fail "SIG$sig: exit $rc, expected $want: $(cat "$TMP/stderr")"
  # gnuplot was told to end; on a loaded machine it may take a moment to go
  # (a killed child stays until reaped): wait up to 5 s, far past a normal end
  for i in $(seq 100); do
    { [ "$gp" != none ] && kill -0 "$gp" 2>/dev/null; } || break; sleep 0.05
  done
  if [ "$gp" != none ] && kill -0 "$gp" 2>/dev/null; then
    fail "SIG$sig: gnuplot ($gp) still runs"; kill "$gp"
  else pass "SIG$sig: gnuplot gone (pid $gp)"; fi
  left=$(find "out-$sig" "$TMPDIR" -mindepth 1)
  [ -z "$left" ] && pass "SIG$sig: nothing left beside the output or in \$TMPDIR" ||
    fail "SIG$sig: left behind: $left"
  rm -rf "out-$sig" "${TMPDIR:?}"/*
done
finish
