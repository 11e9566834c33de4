# Shared by the reliability tests (sourced after tests/cli/lib.sh).
# CLFAULT is the fault injector (libclfault.so), set by CTest.
: "${CLFAULT:?CLFAULT must point at libclfault.so}"

# The ASan runtime must come first among the loaded libraries: when clbench
# is a sanitizer build, preload libasan in front of the injector.
PRELOAD=$CLFAULT
ASAN_LIB=$(ldd "$CLBENCH" | awk '/libasan/ {print $3; exit}')
[ -n "$ASAN_LIB" ] && PRELOAD="$ASAN_LIB:$CLFAULT"
SANITIZED=${ASAN_LIB:+1}

# Every registered workload, from 'clbench --help' (so new ones are covered).
WORKLOADS=$("$CLBENCH" --help | awk '/^workloads:/ {f = 1; next} f && /^  [a-z0-9_]+ / {print $1} f && /^$/ {exit}')
[ -n "$WORKLOADS" ] || { echo "FAIL: no workloads listed by clbench --help" >&2; exit 1; }

# Launches the timer check makes when a device is opened, before any workload
# (host/core/timer.c: 2 warm-up + 15 empty + 6 growing + 3 long): a test that
# aims at the Nth launch of a workload adds them.
TIMER_LAUNCHES=26

# Small and fast: one timed repetition, no warm-up, quick sizes, the CPU.
FAST=(--quick -d $POCL -n 1 --warmup 0 -q)

# run_fault FAULT CORRUPT ARGS...: clbench ARGS through the injector; fills
# RC, ERR_TXT, and FIRED (the injector's log of what it did).
run_fault() {
  local fault=$1 corrupt=$2; shift 2
  rm -f "$TMP/fault.log" "$TMP/counts"
  set +e
  CLBENCH_FAULT=$fault CLBENCH_CORRUPT=$corrupt CLBENCH_FAULT_LOG="$TMP/fault.log" \
    CLBENCH_FAULT_COUNTS="$TMP/counts" LD_PRELOAD="$PRELOAD" \
    "$CLBENCH" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?
  set -e
  ERR_TXT=$(cat "$TMP/stderr")
  FIRED=$(cat "$TMP/fault.log" 2>/dev/null || true)
}

# no_crash WHAT [EXPECTED_RC]: no signal death (other than an expected exit
# status), no sanitizer report, no OpenCL object left alive at exit (the
# injector counts creations and releases).
no_crash() {
  local what=$1 expected=${2:--1}
  if [ "$RC" -ge 128 ] && [ "$RC" -ne "$expected" ]; then fail "$what: killed by a signal (exit $RC): $(tail -n 5 "$TMP/stderr")"; return; fi
  if grep -Eq 'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:' "$TMP/stderr"; then
    fail "$what: sanitizer report: $(grep -E -m 3 'Sanitizer|runtime error' "$TMP/stderr")"; return; fi
  local live; live=$(awk '$1 == "live" && $3 != 0' "$TMP/counts" 2>/dev/null || true)
  if [ -n "$live" ]; then fail "$what: OpenCL objects not released: $(echo $live)"; return; fi
  pass "$what: no crash, no sanitizer report, every OpenCL object released"
}

# csv_check FILE: the file parses as CSV, has exactly one header (the first
# line) and every row has the 38 columns of schema v3. Prints the number of rows.
csv_check() {
  python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows and rows[0][0] == "run_id" and len(rows[0]) == 38, "bad header"
bad = [i for i, r in enumerate(rows[1:], 2) if len(r) != 38 or r[0] == "run_id"]
assert not bad, "bad rows at records %s" % bad[:5]
print(len(rows) - 1)
PY
}

# csv_query FILE EXPR: print EXPR (Python, over `rows`, a list of dicts).
csv_query() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(eval(sys.argv[2]))
PY
}
