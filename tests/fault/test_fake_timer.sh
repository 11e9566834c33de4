#!/usr/bin/env bash
# A device whose event timer lies (the injector's CLBENCH_FAKE_TIMER: every
# event reads 0, 1, 2, 3 ns and the resolution 0, as Mesa Rusticl 22.3 on
# llvmpipe answers): the timer check finds it, every kernel is timed on the
# host clock and says so (timer=host and why), the summary says so once,
# launch dispatch (only device timestamps have it) is skipped with that
# reason, and no figure is the 1e-9 s of the false events. The same run
# without the fake keeps its events (PoCL's timer is real).
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e

for fake in 1 0; do
  CLBENCH_FAKE_TIMER=$fake LD_PRELOAD="$PRELOAD" "$CLBENCH" run stream,launch,roofline --quick \
    -d $POCL -t float -n 3 --warmup 1 -o fake$fake.csv >"$TMP/stdout" 2>"$TMP/stderr" && RC=0 || RC=$?
  [ "$RC" -eq 0 ] && pass "fake=$fake: exit 0" || fail "fake=$fake: exit $RC: $(tail -n 3 "$TMP/stderr")"
  python3 - fake$fake.csv $fake <<'PY' && pass "fake=$fake: rows as the timer deserves" || fail "fake=$fake: rows wrong"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
fake = sys.argv[2] == "1"
# rows of each workload run: no file, or no rows, is no pass
bad = ["no %s row" % w for w in ("stream", "launch", "roofline") if not any(r["workload"] == w for r in rows)]
for r in rows:
    name = r["workload"] + " " + r["kernel"]
    evented = r["workload"] in ("stream", "roofline")
    host = "timer=host (" in r["detail"] and "timer_host=1" in r["metrics"].split(";")
    if r["kernel"] == "dispatch":
        if fake and not (r["status"] == "skipped" and "needs the device's event timestamps" in r["detail"]):
            bad.append(name + ": not skipped for the timer")
        if not fake and r["status"] != "ok":
            bad.append(name + ": " + r["status"])
        continue
    if r["status"] != "ok":
        bad.append(name + ": " + r["status"] + " " + r["detail"])
    elif float(r["t_min_s"]) < 1e-7:
        bad.append(name + ": t_min_s " + r["t_min_s"])
    elif evented and host != fake:
        bad.append(name + ": timer=host " + str(host))
    elif not evented and host:
        bad.append(name + ": the workload's own host timing marked")
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
done
n=$(grep -c "^timer: .* rows timed on the host clock" "$TMP/stdout" || true)
[ "$n" -eq 0 ] && pass "real timer: no timer line in the summary" || fail "real timer: $n timer lines"
CLBENCH_FAKE_TIMER=1 LD_PRELOAD="$PRELOAD" "$CLBENCH" run stream --quick -d $POCL -t float -n 2 \
  --warmup 0 -o once.csv >"$TMP/stdout" 2>"$TMP/stderr" && RC=0 || RC=$?
[ "$RC" -eq 0 ] && pass "fake timer, stream alone: exit 0" || fail "stream alone: exit $RC: $(tail -n 3 "$TMP/stderr")"
n=$(grep -c "^timer: .* rows timed on the host clock" "$TMP/stdout" || true)
[ "$n" -eq 1 ] && pass "fake timer: the summary says so once" || fail "fake timer: $n timer lines: $(cat "$TMP/stdout")"
s=$(grep "^stream " "$TMP/stdout" || true)
if [ -z "$s" ]; then fail "fake timer: no stream row in the table"
elif echo "$s" | grep -vq "H *ok"; then fail "a stream row without the H flag: $s"
else pass "every stream row flagged H ($(echo "$s" | wc -l) rows)"; fi
# the check's own kernel comes from the binary: a kernel directory without
# timer.cl (an older copy) keeps the device's events trusted
mkdir old && cp "$CLBENCH_SRC"/cl/*.cl old/ && rm old/timer.cl
"$CLBENCH" run stream --quick -d $POCL -t float -n 2 --warmup 0 --kernel-dir old -o old.csv \
  >/dev/null 2>"$TMP/stderr" && RC=0 || RC=$?
[ "$RC" -eq 0 ] && ! grep -q "timer=host" old.csv && pass "--kernel-dir without timer.cl: events still trusted" ||
  fail "--kernel-dir without timer.cl: exit $RC, $(grep -c timer=host old.csv) host-timed rows"
finish
