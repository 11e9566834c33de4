#!/usr/bin/env bash
# What a person reads fits 100 columns (docs/MEASURING.md, "Progress, summary,
# exit status"): every help, list, model scaling and a run's summary, on PoCL and
# the committed rows. Text wraps at words, never inside one (the words of the
# default output are the --wide output's, in order); --wide keeps lines whole;
# a summary row is one line (one line per row of the results file).
source "$(dirname "$0")/lib.sh"
set -e

# widest FILE: the longest line of FILE (characters, not bytes)
widest() { python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] or [0]))' "$1"; }
# same_words A B: A and B hold the same words in the same order
same_words() { [ "$(tr -s ' \n' '\n\n' <"$1")" = "$(tr -s ' \n' '\n\n' <"$2")" ]; }

check() {   # check NAME ARGS...: clbench ARGS fits, and says what --wide says
  local name=$1; shift
  "$CLBENCH" "$@" >"$name.txt" 2>&1 || { fail "$name: exit $?: $(tail -2 "$name.txt")"; return; }
  "$CLBENCH" "$@" --wide >"$name.wide" 2>&1 || true
  local w; w=$(widest "$name.txt")
  if [ "$w" -gt 100 ]; then fail "$name: a line of $w columns: $(awk 'length > 100' "$name.txt" | head -1)"
  elif ! same_words "$name.txt" "$name.wide"; then fail "$name: its words differ from --wide's"
  else pass "$name: $w columns at most"; fi
}

check help --help
check run-help run --help
check model-help model --help
for w in $("$CLBENCH" --help --wide | awk '/^workloads:/{w=1;next} w&&NF{print $1} w&&!NF{exit}'); do
  check "$w-help" "$w" --help
done
check profiles profiles
"$CLBENCH" list -v >list-v.txt   # (--wide adds columns: not the same words)
w=$(widest list-v.txt)
[ "$w" -le 100 ] && pass "list -v: $w columns at most" || fail "list -v: a line of $w columns"
# list: a row per device whose name is never cut (the platforms named under the table)
"$CLBENCH" list >list.txt
"$CLBENCH" list --wide >list.wide
w=$(widest list.txt)
[ "$w" -le 100 ] && grep -q "Portable Computing Language" list.txt && rows list-names list.txt list.wide &&
  pass "list: $w columns, every device's whole name, the platforms named" || fail "list: $w columns: $(cat list.txt)"
# emulators after every real device, so that an emulator's platform 0 (Oclgrind's,
# here) does not move their numbers
if grep -q ' emulator ' list.wide; then
  awk 'NR > 1 && /^[0-9]/ { if ($3 == "emulator") e = 1; else if (e) bad = 1 } END { exit bad }' list.wide &&
    pass "list: the emulators after the real devices" || fail "list: an emulator before a device: $(cat list.wide)"
  emu=$(awk '$3 == "emulator" {print $1; exit}' list.wide)
  run_cb run stream --quick -d "$emu" --dry-run
  echo "$ERR_TXT" | grep -q "^note: device $emu is an emulator" && pass "-d $emu says it is an emulator" ||
    fail "-d $emu (an emulator) said nothing: $ERR_TXT"
else
  skip_part "no emulator (Oclgrind) registered here: the order of emulators not checked"
fi
R="$CLBENCH_SRC/results/runs/2026-11-25"
# a run's summary: a block per workload, a row a line with its own figure (peak
# GFlop/s, latency ns, launch us), dot's long params, the legend once
expect_status 0 "a run of five workloads" run stream,peak,latency,launch,dot --quick -d $POCL \
  -t float -n 3 --warmup 0 -o sum.csv
echo "$OUT_TXT" >sum.txt
w=$(widest sum.txt)
[ "$w" -le 100 ] && pass "the run's summary: $w columns at most" ||
  fail "the run's summary: a line of $w columns: $(awk 'length > 100' sum.txt | head -1)"
rows summary-rows sum.txt sum.csv && pass "a row a line, its own figure and unit; the legend once, its flags only" ||
  fail "summary rows: $(head -5 sum.txt)"
check model-scaling model scaling --results "$R/h200-halo.csv" -w dslash -k reg --param rhs=1 -s 64x64x64x16
finish
