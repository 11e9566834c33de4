#!/usr/bin/env bash
# compare lines devices up by default (docs/COMPARE.md, "Devices are lined up
# by default"): rows of several devices, no --size, are matched as --any-size
# matches them, with a note under the title; --by-size, --size, one device
# and a filter that leaves one device stay size by size. The gate (--baseline)
# keeps its own rules: another device is refused (fail-closed) unless
# --cross-device, and --by-size is not one of its options.
# Fixtures: tests/data/gate/ (two devices at their own default sizes).
source "$(dirname "$0")/lib.sh"
set -e
G="$CLBENCH_SRC/tests/data/gate"
C="$CLBENCH_SRC/tests/data/compare"
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 2000 "$TMP/stdout")"; fi; }
hasnt() { if grep -Eq -- "$1" "$TMP/stdout"; then fail "$2: unexpected /$1/"; else pass "$2"; fi; }
NOTE='^several devices, lined up: each one.s best at any size outside its caches,$'

# ---- the default: two devices at their own sizes share their lines ----------
expect_status 0 "two devices, no --size" compare "$G/base.csv" "$G/otherdev.csv"
has "$NOTE" "the note under the title says how the lines were matched"
has '^stream +copy +float +any +GB/s +1000 +1020$' "stream copy: A at 2^28 and B at 2^29 on one line"
has '^dot +device +float +any +GB/s +500\.0 +500\.0$' "dot: each device's default size, one line"
hasnt '268435456|536870912' "no size-by-size line"
expect_status 0 "--json" compare "$G/base.csv" "$G/otherdev.csv" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["lined_up"] is True and all(l["size"] == "any" for l in d["lines"])' "$TMP/stdout" &&
  pass "--json says lined_up" || fail "--json: $(head -c 300 "$TMP/stdout")"

# ---- the opt-out and what stays size by size ------------------------------------
expect_status 0 "--by-size" compare "$G/base.csv" "$G/otherdev.csv" --by-size
hasnt '^several devices' "--by-size: no note"
has '^stream +copy +float +268435456 +GB/s +1000 +-$' "--by-size: A's size a line of its own"
has '^stream +copy +float +536870912 +GB/s +- +1020$' "--by-size: B's size a line of its own"
expect_status 0 "--size" compare "$G/base.csv" "$G/otherdev.csv" -w stream --size 2^28,2^29
hasnt '^several devices' "--size: no note"
has '^stream +copy +float +268435456 +GB/s +1000 +-$' "--size compares size by size"
has '^stream +copy +float +536870912 +GB/s +- +1020$' "--size: the other size a line of its own"
expect_status 0 "one device in two files" compare "$G/base.csv" "$G/identical.csv"
hasnt '^several devices' "one device: no note"
has '^stream +copy +float +268435456 ' "one device: size by size"
expect_status 0 "a filter leaves one device" compare "$C/gpu.csv" "$G/base.csv" -w transpose
hasnt '^several devices' "-w transpose (only the H100 ran it): no note"
has '^transpose +naive +float +8192x8192 ' "the H100's transpose size by size"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["lined_up"] is False' \
  <(cd "$TMP" && "$CLBENCH" compare "$G/base.csv" "$G/otherdev.csv" --by-size --json) &&
  pass "--by-size --json: lined_up false" || fail "--by-size --json"
expect_error 2 "--by-size and --any-size ask for two kinds of lines" "--by-size with --any-size" \
  compare "$G/base.csv" "$G/otherdev.csv" --by-size --any-size

# ---- cache-resident rows: left out as --any-size leaves them, and said so --------
rows lineup-cache-rows "$C/sizes.csv" cache2.csv
expect_status 0 "only cache rows, two devices: each kept (a device never disappears)" compare cache2.csv
has '^stream +copy +float +any +GB/s +90\.00 ±5\.6% C +90\.00 ±5\.6% C$' "both devices' cache figures, marked C"
has '^\[2\] Cache Dev B: every selected row of stream is cache-resident: kept, marked C$' "each said so"
expect_status 0 "--include-cache" compare cache2.csv --include-cache
has '^as --any-size --include-cache ' "the note says the cache rows are kept"
expect_status 0 "only cache rows, --by-size" compare cache2.csv --by-size
has '^stream +copy +float +1048576 ' "--by-size keeps them size by size"

# ---- workloads that vary the size keep it: bus (drawn against the transfer
# size) and latency (a staircase over the working set, caches included) ----
rows lineup-vary "$C/ceil.csv" vary.csv
expect_status 0 "bus and stream of two devices" compare vary.csv
has "$NOTE" "lined up"
has '^by size still where the size is what a workload varies: bus, latency$' "the note names the workloads kept by size"
has '^stream +copy +float +any +GB/s +100\.0 +101\.0$' "stream lined up"
has '^bus +pageable_h2d +4096 +GB/s +1\.00 +2\.00$' "bus 4 KiB: a line of its own"
has '^bus +pageable_h2d +1048576 +GB/s +10\.00 +11\.00$' "bus 1 MiB: a line of its own"
expect_status 0 "--any-size asked for" compare vary.csv --any-size
hasnt '^by size still' "--any-size as asked: bus too at any size"
has '^bus +pageable_h2d +any +GB/s +10\.00 ±45\.0% +11\.00 ±40\.9%$' "--any-size: bus's best at any size (±: the sizes' spread)"
if command -v gnuplot >/dev/null 2>&1; then
  expect_status 0 "latency staircase of two devices" compare vary.csv -w latency --plot lat.svg
  grep -qF '>1 kiB<' lat.svg && pass "the lineup keeps the staircase's cache-resident point (1 kiB)" ||
    fail "the staircase lost its cache-resident point"
else
  skip_part "gnuplot is not installed here, the staircase figure not checked"
fi

# ---- the gate keeps its rules (tests/cli/test_gate.sh has them all) ----------------
expect_error 2 "the baseline is from 'Gate Test GPU A', the new files from 'Gate Test GPU B': another device \(--cross-device" \
  "the gate still refuses another device (fail-closed)" compare "$G/otherdev.csv" --baseline "$G/base.csv"
[ -z "$OUT_TXT" ] && pass "nothing printed on stdout" || fail "stdout: $OUT_TXT"
expect_status 0 "the gate with --cross-device" compare "$G/otherdev.csv" --baseline "$G/base.csv" -w stream,dot --cross-device
hasnt '^several devices' "the gate prints no lineup note"
has '^stream +copy +float +default ' "--cross-device: its own 'default' size, not the table's 'any'"
expect_error 2 "--by-size goes with the table, not with --baseline" "--by-size with --baseline" \
  compare "$G/otherdev.csv" --baseline "$G/base.csv" --by-size
finish
