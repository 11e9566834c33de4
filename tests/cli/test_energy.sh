#!/usr/bin/env bash
# Energy columns on PoCL: empty but valid where no source exists (this
# machine has no readable RAPL), never estimated; filled from a fake RAPL
# tree (CLBENCH_POWERCAP_ROOT) whose counter a background writer advances at
# 100 W, wrapping at 1 kJ (it starts just below: the run sees the wrap); --energy off leaves them empty; bad values refused.
source "$(dirname "$0")/lib.sh"
set -e
col_set() { csv_col "$1" "$2" | sort -u | tr '\n' ' '; }

CLBENCH_POWERCAP_ROOT="$TMP/none" expect_status 0 "no energy source" run stream --quick -d $POCL -t float -n 3 -o none.csv
[ "$(col_set none.csv energy_j)" = " " ] && [ "$(col_set none.csv avg_power_w)" = " " ] &&
  [ "$(col_set none.csv power_source)" = " " ] && pass "energy columns empty without a source" ||
  fail "energy columns filled without a source: $(col_set none.csv power_source)"
CLBENCH_POWERCAP_ROOT="$TMP/none" expect_status 0 "--energy on without a source" run stream --quick -d $POCL -t float -n 3 --energy on -o none2.csv
echo "$ERR_TXT" | grep -q "energy: no RAPL" && pass "--energy on says why it has none" || fail "no reason: $ERR_TXT"

# a fake package zone: 100 W = 100 uJ per microsecond; the writer updates every 2 ms.
# Under a loaded 2-core CI machine the writer can stall for most of a 0.2 s
# window (a reading of 7.7 W was seen): a stale reading at the window's start
# raises the power, at its end lowers it, so the rows' power is checked for
# its order only (rows.py FAKE_W_LO..HI: the pipeline: source, window,
# columns, units); the arithmetic itself,
# wrap included, is unit_test_core_energy's.
R="$TMP/powercap/intel-rapl:0"; mkdir -p "$R"
echo package-0 > "$R/name"; echo 1000000000 > "$R/max_energy_range_uj"; echo 990000000 > "$R/energy_uj"
python3 "$CLI_DIR/rows.py" fake-rapl "$R/energy_uj" &
WRITER=$!
trap 'kill $WRITER 2>/dev/null; rm -rf "$TMP"' EXIT
sleep 0.3
CLBENCH_POWERCAP_ROOT="$TMP/powercap" expect_status 0 "fake RAPL" run stream --quick -d $POCL -t float -n 5 --energy-window 0.2 -o rapl.csv
rows energy-rapl rapl.csv && pass "energy_j, avg_power_w and power_source from the fake RAPL" || fail "energy columns wrong"
# auto without a window: short configurations are not stretched and get no
# reading (the window is below what the source resolves; 4096 elements keep
# three runs far below 0.1 s even on a loaded machine); --energy on stretches
CLBENCH_POWERCAP_ROOT="$TMP/powercap" expect_status 0 "auto, short runs" run stream --quick -s 4096 -d $POCL -t float -n 3 --min-time 0 -o short.csv
rows energy-short short.csv && pass "auto: no reading over windows shorter than the source resolves" || fail "short windows read"
CLBENCH_POWERCAP_ROOT="$TMP/powercap" expect_status 0 "--energy on stretches" run stream --quick -d $POCL -t float -n 3 --min-time 0 --energy on -o on.csv
rows energy-on on.csv && pass "--energy on: every configuration stretched to 0.1 s and read" || fail "--energy on rows"
CLBENCH_POWERCAP_ROOT="$TMP/powercap" expect_status 0 "--energy off" run stream --quick -d $POCL -t float -n 3 --energy off -o off.csv
[ "$(col_set off.csv power_source)" = " " ] && pass "--energy off leaves them empty" || fail "energy with --energy off"
expect_error 2 "bad --energy" "--energy maybe refused" run stream --quick -d $POCL --energy maybe -o bad.csv
expect_error 2 "bad --energy-window" "negative window refused" run stream --quick -d $POCL --energy-window -1 -o bad.csv
finish
