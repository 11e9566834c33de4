#!/usr/bin/env bash
# No hang goes unreported (docs/MEASURING.md "Hangs"): a kernel that never
# ends in practice (launch.cl's kernel made a loop of 1.6e19 stores, loaded
# with --kernel-dir) under --case-timeout ends the run with exit 6, one line
# naming the step and the implementation, an error row for it, and the rows
# measured before it whole. Without a deadline, the first SIGTERM (all that
# `timeout` sends) ends such a run within the stop grace, where it used to
# wait for the hung call for ever.
source "$(dirname "$0")/lib.sh"
set -e
mkdir hang && cp "$CLBENCH_SRC"/cl/*.cl hang/
cat >hang/launch.cl <<'EOF'
__kernel void empty(__global uint *out, uint v)
{
    volatile __global uint *o = out;
    for (uint j = 0; j < 4000000000u; j++)
        for (uint i = 0; i < 4000000000u; i++)
            o[0] = v + i + j;
}
EOF

t0=$(date +%s)
expect_error 6 "timeout: .*launch.* did not finish within 4 s \(--case-timeout\) on '.*' \(Portable Computing Language" \
  "a hung launch is named and ends the run" \
  run stream,launch --quick -d $POCL -t float -n 2 --warmup 0 --case-timeout 4 --kernel-dir hang -o out.csv
t1=$(date +%s)
[ $((t1 - t0)) -lt 120 ] && pass "ended in $((t1 - t0)) s" || fail "took $((t1 - t0)) s"
rows watchdog-rows out.csv && pass "stream rows whole and ok, one timeout error row for launch" || fail "rows: $(cat out.csv)"

# --case-timeout 0: no deadline; a first SIGTERM, and the hung kernel, must still end.
# The signal must find the kernel running: on a loaded machine the run may
# still be building it a second after its "device" line, and a run that is
# not hung ends at once without naming anything. So a try whose run ended
# without the message is repeated after a longer wait (1, 4, then 10 s).
sigterm_try() {
  "$CLBENCH" run launch --quick -d $POCL --warmup 0 --case-timeout 0 --kernel-dir hang \
    -o sig.csv >"$TMP/stdout" 2>"$TMP/stderr" &
  pid=$!
  for i in $(seq 1 600); do grep -q "^device " "$TMP/stderr" && break; sleep 0.1; done
  sleep "$1"
  kill -TERM $pid
  t0=$(date +%s)
  set +e
  timeout 30 tail --pid=$pid -f /dev/null
  t1=$(date +%s)
  kill -KILL $pid 2>/dev/null   # still there after 30 s: the signal was not enough
  wait $pid; RC=$?
  set -e
  grep -q "^clbench: interrupted, and .* did not return within 3 s of the signal" "$TMP/stderr"
}
for wait_s in 1 4 10; do
  sigterm_try $wait_s && named=1 && break
  named=0
  [ "$RC" -eq 143 ] || break
done
[ "$RC" -eq 143 ] && pass "one SIGTERM ends a hung run: exit 143 after $((t1 - t0)) s" ||
  fail "one SIGTERM: exit $RC after $((t1 - t0)) s; $(tail -n 2 "$TMP/stderr")"
[ "$named" -eq 1 ] && pass "names what did not return (signal after ${wait_s} s)" ||
  fail "no message: $(tail -n 2 "$TMP/stderr")"

expect_error 2 "bad --case-timeout 'soon'" "--case-timeout must be a number" \
  run stream --quick -d $POCL --case-timeout soon -o bad.csv
expect_error 2 "bad --case-timeout '-1'" "--case-timeout must not be negative" \
  run stream --quick -d $POCL --case-timeout -1 -o bad.csv
finish
