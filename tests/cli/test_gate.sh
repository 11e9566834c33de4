#!/usr/bin/env bash
# The regression gate, clbench compare --baseline (docs/COMPARE.md, "The gate"):
# what a line is (case parameters, never tuning ones), a changed tuning named,
# and the roles every workload declares, as docs/COMPARE.md lists them.
# Fixtures: tests/data/gate/ (make_fixtures.py; made-up figures).
source "$(dirname "$0")/lib.sh"
set -e
D="$CLBENCH_SRC/tests/data/gate"
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 3000 "$TMP/stdout")"; fi; }
# has_then A B DESCRIPTION: a line /A/ directly followed by a line /B/ (the text table puts
# what changed in a line's tuning on an indented line below it)
has_then() {
  if awk -v a="$1" -v b="$2" 'p && $0 ~ b {f = 1} {p = $0 ~ a} END {exit !f}' "$TMP/stdout"
  then pass "$3"; else fail "$3: no line /$1/ then /$2/ in: $(head -c 3000 "$TMP/stdout")"; fi
}

# ---- every parameter of every workload says its role; the doc's table is theirs ----
names=$("$CLBENCH" --help --wide | awk '/^workloads:/{w=1;next} w&&NF{print $1} w&&!NF{exit}')
[ -n "$names" ] || fail "no workload names from --help"
for w in $names; do "$CLBENCH" "$w" --help --wide >"$TMP/help.$w" || fail "$w --help"; done
rows gate-roles "$TMP" "$CLBENCH_SRC/docs/COMPARE.md" $names >"$TMP/roles.out" 2>&1 && pass "every parameter declares case or tuning; docs/COMPARE.md lists them as the code does" || fail "roles: $(cat "$TMP/roles.out")"

# ---- the gate's six cases (docs/COMPARE.md, "The gate"; each exited 0, or 1 for the noise, before the gate) ----
# 1. nothing in common: exit 2, naming the workloads of each side
expect_error 2 "nothing in common: the baseline has stream, dot, dslash; the new files have transpose" \
  "nothing in common: exit 2" compare "$D/nothing.csv" --baseline "$D/base.csv"
[ -z "$OUT_TXT" ] && pass "nothing printed on stdout" || fail "stdout: $OUT_TXT"
expect_error 2 "nothing in common" "--allow-missing does not make nothing pass" \
  compare "$D/nothing.csv" --baseline "$D/base.csv" --allow-missing

# 2. tuning is not what a line is: a profile moved local 128 -> 1024, copy 20 % slower
expect_error 1 "the gate fails against '.*base\.csv': 1 line regressed by more than 5%" \
  "tuning-only change with a 20 % slowdown: exit 1" compare "$D/tuned.csv" --baseline "$D/base.csv"
has_then '^stream copy float 268435456 +GB/s +1000 ±2\.9% +800\.0 ±2\.9% +-20\.0% +REGRESSED$' '^  tuned: local 128→1024$' \
  "the line is matched and the tuning change named"
has_then '^stream triad float 268435456 ' '^  tuned: local 128→1024$' "an unchanged figure shows its changed tuning too"
has '^dslash reg float 16x16x16x16 links=full,rhs=2 +GFlop/s ' "case parameters keep lines apart, in the workload's own unit"
expect_error 1 "1 line regressed" "the same from JSON Lines" compare "$D/tuned.jsonl" --baseline "$D/base.csv"

# 3. a baseline line missing from the new run: exit 1; --allow-missing: 0
expect_error 1 "1 missing from the new files" "missing line: exit 1" compare "$D/missing.csv" --baseline "$D/base.csv"
has '^dslash reg float 16x16x16x16 links=full,rhs=2 +GFlop/s +900\.0 ±1\.0% +- +- +MISSING$' "the missing line is listed"
has '^gate: 4 compared, 0 regressed, 0 improved, 0 changed, 1 missing, 0 new; FAIL$' "the summary counts it"
expect_status 0 "missing line with --allow-missing" compare "$D/missing.csv" --baseline "$D/base.csv" --allow-missing
has 'missing \(allowed\)$' "allowed, still listed"
expect_error 1 "1 missing" "a line only skipped in the new run lost its figure: as missing" \
  compare "$D/skipped.csv" --baseline "$D/base.csv"
expect_status 0 "... which --allow-missing lets pass" compare "$D/skipped.csv" --baseline "$D/base.csv" --allow-missing
expect_error 1 "1 lost its figure \(failed or error\)" "a failed validation fails even with --allow-missing" \
  compare "$D/failed.csv" --baseline "$D/base.csv" --allow-missing
expect_error 1 "2 missing from the new files" "a launch reduced to fit, even faster, is not the line of the asked one" \
  compare "$D/reduced.csv" --baseline "$D/base.csv"
has_then '^stream copy float 268435456 ilp=1,local=32,vec=4 \[reduced\]$' '^ +GB/s +- +1100 ±2\.9% +- +new$' \
  "the reduced line is new, its launch its identity"

# 4. another device: exit 2 naming both; --cross-device matches at each default size
expect_error 2 "the baseline is from 'Gate Test GPU A', the new files from 'Gate Test GPU B': another device" \
  "another device: exit 2" compare "$D/otherdev.csv" --baseline "$D/base.csv"
expect_status 0 "another device with --cross-device" compare "$D/otherdev.csv" --baseline "$D/base.csv" --cross-device
has '^stream copy float default \(268435456→536870912\) +GB/s .* \+2\.0% +same$' \
  "stream at each device's default size"
has '^dot device float default \(16777216→33554432\) ' "dot at each device's default size"
has '^dslash reg float 16x16x16x16 links=full,rhs=1 ' "a given size matches as given"
has '^gate: 5 compared, 0 regressed' "every line compared"
expect_status 1 "rows without size_from match at their sizes as given" \
  compare "$D/unmarked.csv" --baseline "$D/base.csv" --cross-device
has '^note: 5 rows do not say whether their size was their device.s default' "and a note says so"
expect_error 2 "--cross-device sets one device against one: the new files have 'Gate Test GPU B, Gate Test GPU A'" \
  "--cross-device with two devices on a side" compare "$D/otherdev.csv" "$D/identical.csv" --baseline "$D/base.csv" --cross-device
{ cat "$D/base.csv"; tail -n +2 "$D/otherdev.csv" | sed 's/^r1,/b2,/'; } >both.csv
expect_status 0 "several devices on each side: lines per device" compare "$D/otherdev.csv" "$D/identical.csv" \
  --baseline both.csv
has '^stream copy float 268435456 on Gate Test GPU A ' "the device in the line"
has '^gate: 10 compared, 0 regressed' "each device against its own"
expect_error 1 "5 missing" "a device the new files lack: its lines are missing" compare "$D/identical.csv" --baseline both.csv

# 5. a 3 % slowdown inside a 6 % spread: "noise", exit 0 (the threshold alone, --strict: 1)
expect_status 0 "a 3 % slowdown inside a 6 % spread (--threshold 2)" compare "$D/noise.csv" --baseline "$D/base.csv" --threshold 2
has '^stream copy float 268435456 +GB/s +1000 ±2\.9% +970\.0 ±2\.9% +-3\.0% +noise$' "the line says noise"
has '^  1 within noise,' "the summary counts it"
expect_error 1 "1 line regressed by more than 2%$" "--strict drops the spread" \
  compare "$D/noise.csv" --baseline "$D/base.csv" --threshold 2 --strict

# 6. an identical run: exit 0
expect_status 0 "an identical run" compare "$D/identical.csv" --baseline "$D/base.csv"
has '^stream copy float 268435456 +GB/s +1000 ±2\.9% +1000 ±2\.9% +\+0\.0% +same$' "an unchanged line"
has '^gate: 5 compared, 0 regressed, 0 improved, 0 changed, 0 missing, 0 new; pass$' "the summary"
has '^  0 within noise, 0 lost their figure \(failed or error\), 0 without a baseline figure$' "its second line"
expect_status 0 "an identical run in Markdown" compare "$D/identical.csv" --baseline "$D/base.csv" --markdown
has '^\| stream \| copy \| float \| 268435456 \|  \| ilp=1,local=128,vec=4 \| GB/s \| 1000 ±2\.9% \| 1000 ±2\.9% \| \+0\.0% \| same \|$' \
  "Markdown: every column, the tuning where it did not change"

# ---- two ways the gate passed a run it must fail ------------------
# a group that stopped in set-up (one kernel=* error row) loses its lines' figures
expect_error 1 "2 lost their figure \(failed or error; 2 of them in a group that stopped in set-up\)" \
  "a group that errored in set-up fails even with --allow-missing" \
  compare "$D/groupfail.csv" --baseline "$D/base.csv" --allow-missing
has '^dslash reg float 16x16x16x16 links=full,rhs=1 +GFlop/s +800\.0 ±1\.0% +error +- +LOST$' "its lines read LOST"
# the baseline's own run on the new side: refused with a note; the new run's 50 % found
expect_error 1 "1 line regressed" "the baseline's own rows in the new file do not hide a regression" \
  compare "$D/withbase.csv" --baseline "$D/base.csv"
has "^note: 5 rows of the new files are the baseline's own \(run id b1\): left out of the new side$" \
  "the refused rows are named"
expect_error 2 "every selected row of the new files is the baseline's own \(run id b1 of '.*base\.csv'\)" \
  "the baseline as its own new run is refused" compare "$D/base.csv" --baseline "$D/base.csv"

# ---- Markdown and JSON carry the same verdicts ---------------------------------------
for f in tuned missing noise; do
  extra=""; [ $f = noise ] && extra="--threshold 2"
  run_cb compare "$D/$f.csv" --baseline "$D/base.csv" $extra
  cp "$TMP/stdout" "$TMP/$f.txt"; rc_text=$RC
  run_cb compare "$D/$f.csv" --baseline "$D/base.csv" $extra --markdown
  cp "$TMP/stdout" "$TMP/$f.md"; rc_md=$RC
  run_cb compare "$D/$f.csv" --baseline "$D/base.csv" $extra --json
  cp "$TMP/stdout" "$TMP/$f.json"; rc_json=$RC
  rows gate-formats-agree "$TMP/$f.txt" "$TMP/$f.md" "$TMP/$f.json" && [ $rc_text = $rc_md ] && [ $rc_md = $rc_json ] \
    && pass "$f: text, Markdown and JSON give the same verdicts (exit $rc_text)" || fail "$f: outputs disagree (exits $rc_text $rc_md $rc_json)"
done
rows gate-tuned-json "$TMP/tuned.json" && pass "the JSON line: both sides, their spread and tuning, the change" || fail "tuned JSON: $(head -c 600 "$TMP/tuned.json")"

# ---- the options go with --baseline -----------------------------------------------
for o in --strict --allow-missing --cross-device; do
  expect_error 2 "$o goes with --baseline" "$o without --baseline" compare "$D/base.csv" $o
done
finish
