# Shared by the CLI tests (sourced). CTest sets CLBENCH (the binary) and
# CLBENCH_SRC (the source tree). Every test works in its own temporary dir.
set -u
: "${CLBENCH:?CLBENCH must point at the clbench binary}"
CLI_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
FAILS=0

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# The PoCL device every test runs on, by its flat index: other OpenCL
# implementations may be registered (Mesa's Rusticl and Clover come with
# mesa-opencl-icd) and the ICD loader's order of platforms is not fixed, so
# neither "device 0" nor "the first CPU" is PoCL everywhere.
POCL=$("$CLBENCH" list --wide 2>/dev/null | awk '/Portable Computing Language/ {print $1; exit}')
if [ -z "$POCL" ]; then
  echo "FAIL: 'clbench list' shows no PoCL device (install pocl-opencl-icd)" >&2
  exit 1
fi
pass() { echo "ok: $*"; }

# pocl_limits: what the PoCL device reports (`clbench list -v`), for a test
# that derives its expectations from the device, never from one machine:
# POCL_WG (the work-group maximum), POCL_DIMS (per dimension, AxBxC) and
# POCL_LOCAL (local memory, bytes).
pocl_limits() {
  local l
  l=$("$CLBENCH" list -v --wide 2>/dev/null |
      awk -v d="$POCL" '$1 == d {f = 1; next} f && /^ / {print} f && !/^ / {exit}')
  POCL_WG=$(echo "$l" | sed -n 's/.*work-group <= \([0-9]*\).* (\([0-9]*\) x \([0-9]*\) x \([0-9]*\)).*/\1/p')
  POCL_DIMS=$(echo "$l" | sed -n 's/.*work-group <= [0-9]*.* (\([0-9]*\) x \([0-9]*\) x \([0-9]*\)).*/\1x\2x\3/p')
  POCL_LOCAL=$(echo "$l" | sed -n 's/.*, local \([0-9]*\) KB$/\1/p')
  if [ -z "$POCL_WG" ] || [ -z "$POCL_DIMS" ] || [ -z "$POCL_LOCAL" ]; then
    echo "FAIL: no work-group or local memory limit in 'clbench list -v' for device $POCL: $l" >&2
    exit 1
  fi
  POCL_LOCAL=$((POCL_LOCAL * 1024))
}

# fit_expect RULE ASKED [ESIZE]: what the fit makes of tile ASKED on this PoCL
# device (pocl_limits first), along a workload's shrink RULE: "none" when
# nothing of its form fits (tests/cli/rows.py, fit)
fit_expect() { rows fit "$1" "$2" "$POCL_WG" "$POCL_DIMS" "$POCL_LOCAL" "${3:-0}"; }

# expect_fit FILE KEY ASKED WANT DESCRIPTION: every row of FILE ok and run with
# KEY=WANT: reduced from ASKED (said and flagged), or as asked when WANT is ASKED
expect_fit() {
  if rows fitted "$1" "$2" "$3" "$4"; then pass "$5: $2 $3 runs as $4 on this device"
  else fail "$5: $2 $3 should run as $4 here (work-group <= $POCL_WG, $POCL_LOCAL B local)"; fi
}

# run_cb ARGS...: run clbench, keep stdout/stderr/status in $OUT_TXT $ERR_TXT $RC
run_cb() {
  set +e
  "$CLBENCH" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
  RC=$?
  set -e
  OUT_TXT=$(cat "$TMP/stdout")
  ERR_TXT=$(cat "$TMP/stderr")
}

# expect_status N DESCRIPTION ARGS...: clbench ARGS exits N
expect_status() {
  local want=$1 what=$2; shift 2
  run_cb "$@"
  if [ "$RC" -eq "$want" ]; then pass "$what (exit $RC)"; else
    fail "$what: exit $RC, expected $want; stderr: $ERR_TXT"; fi
}

# expect_error N PATTERN DESCRIPTION ARGS...: exits N with exactly one error
# line on stderr (starting "clbench:") that matches PATTERN (grep -E); the
# progress lines before it (the device line, [i/n] lines) are not errors.
expect_error() {
  local want=$1 pat=$2 what=$3; shift 3
  run_cb "$@"
  local lines; lines=$(grep -c '^clbench:' "$TMP/stderr" || true)
  if [ "$RC" -ne "$want" ]; then fail "$what: exit $RC, expected $want; stderr: $ERR_TXT"
  elif [ "$lines" -ne 1 ]; then fail "$what: $lines lines on stderr, expected 1: $ERR_TXT"
  elif ! grep -Eq "^clbench: .*($pat)" "$TMP/stderr"; then fail "$what: message '$ERR_TXT' does not match /$pat/"
  else pass "$what: $ERR_TXT"; fi
}

# rows CHECK ARGS...: a check over a results file (tests/cli/rows.py says which)
rows() { python3 "$CLI_DIR/rows.py" "$@"; }

# csv_col FILE NAME: print column NAME of every data row (rows.py col: libcsv-quoted fields read by python3's csv)
csv_col() { rows col "$1" "$2"; }

# expect_rows FILE WORKLOAD KERNELS TYPES: every (kernel,type) has a row with status ok
expect_rows() {
  local file=$1 wl=$2 kernels=$3 types=$4 k t
  for k in ${kernels//,/ }; do
    for t in ${types//,/ }; do
      if rows ok-rows "$file" "$wl" "$k" "$t"; then pass "$wl $k $t: ok rows"; else fail "$wl $k $t: no row or a row not ok in $file"; fi
    done
  done
}

# Skips say why, as a "skip: REASON" line that bench.sh test's summary lists
# (tests/skip_summary.py). skip_test REASON: nothing of the test can run here:
# exit 77, which CTest (SKIP_RETURN_CODE) counts as skipped, never passed.
# skip_part REASON: some checks cannot run here; the others still count.
SKIPS=0
skip_test() {
  echo "skip: $*"
  [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed" >&2; exit 1; }
  exit 77
}
skip_part() { echo "skip: $*"; SKIPS=$((SKIPS + 1)); }

finish() {
  if [ "$FAILS" -ne 0 ]; then echo "$FAILS check(s) failed" >&2; exit 1; fi
  if [ "$SKIPS" -ne 0 ]; then echo "all checks passed but $SKIPS part(s) skipped"; else
    echo "all checks passed"; fi
}
