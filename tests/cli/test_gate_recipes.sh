#!/usr/bin/env bash
# docs/COMPARE.md's CI recipes (GitHub Actions, GitLab CI), run as the doc writes them
# (extracted from it, not copied here), against committed runs of one device and on
# PoCL. A gate that cries wolf on unchanged hardware gets switched off: every
# like-for-like pair of committed runs of one device (the same code and profile) must
# pass the default gate through the recipe, host-bound lines left out and counted.
#
# ./build/clbench is a stand-in: `run` replays a committed run ($REPLAY: FILE or
# FILE#N, the N-th run id of FILE) restricted to the workloads the recipe names, or,
# without $REPLAY, runs on PoCL at --quick sizes; every other command is clbench itself.
source "$(dirname "$0")/lib.sh"
set -e
S="$CLBENCH_SRC"
R="$S/results/runs/2026-11-23"
C="$S/results/runs/2026-11-25"

rows recipes "$S/docs/COMPARE.md" "$TMP" >ids.txt || fail "no recipes in docs/COMPARE.md"
for k in $(cat ids.txt); do
  [ "$(cat "recipe-$k.env")" = "CLBENCH_DEVICE BASELINE" ] && pass "recipe $k: its environment is the device and the baseline" ||
    fail "recipe $k sets $(cat "recipe-$k.env"): the test provides CLBENCH_DEVICE and BASELINE only"
done
mkdir -p stand-in/build
# (a replay is made once and copied; so is the PoCL baseline, the same run line's)
mkdir -p cache
cat >stand-in/build/clbench <<EOF
#!/usr/bin/env bash
out=new.csv; for ((i = 1; i < \$#; i++)); do [ "\${!i}" = -o ] && { j=\$((i + 1)); out=\${!j}; }; done
key=$TMP/cache/\$(echo "\${REPLAY:-pocl-\${POCL_RUN:-new}} \$*" | md5sum | cut -c1-16).csv
if [ "\$1" = run ] && [ -s "\$key" ] && [ "\${POCL_RUN:-}" != new ]; then
  exec cp "\$key" "\$out"
elif [ "\$1" = run ] && [ -n "\${REPLAY:-}" ]; then
  python3 "$CLI_DIR/rows.py" replay "\${REPLAY%%#*}" "\$2" "\$key" \$([ "\${REPLAY#*#}" != "\$REPLAY" ] && echo "\${REPLAY#*#}") &&
    exec cp "\$key" "\$out"
elif [ "\$1" = run ]; then
  shift; "$CLBENCH" run "\$1" --quick -n 3 "\${@:2}" && cp "\$out" "\$key"
  exit \$?
fi
exec "$CLBENCH" "\$@"
EOF
chmod +x stand-in/build/clbench

# recipe K with the baseline made by its own run line from OLD, the new run from NEW
# (REPLAY values; "" for PoCL); its exit status in $RC, its directory $DIR
recipe() {
  local k=$1 old=$2 new=$3
  DIR=$TMP/pair-$((++NPAIR))
  mkdir -p "$DIR/base" && cp -r stand-in/build "$DIR/" && cp -r stand-in/build "$DIR/base/"
  (cd "$DIR/base" && REPLAY=$old POCL_RUN=base CLBENCH_DEVICE=$POCL bash -e "$TMP/recipe-$k-run.sh") >"$DIR/base.out" 2>&1 ||
    { fail "recipe $k: the baseline's run line: $(tail -3 "$DIR/base.out")"; RC=99; return; }
  set +e
  (cd "$DIR" && REPLAY=$new POCL_RUN=new CLBENCH_DEVICE=$POCL BASELINE=base/new.csv GITHUB_STEP_SUMMARY=summary.md \
     bash -e "$TMP/recipe-$k.sh") >"$DIR/out" 2>"$DIR/err"
  RC=$?
  set -e
}
NPAIR=0

# ---- committed runs of one device, like for like --------------------------------------
# The suites of each GPU from one session (one code and profile; the H100's suite-1 and
# -2 ran before its cg tuning, which the recipe's workloads do not use), the cold-start
# A/B of 2026-11-25 (cache and builders on and off: the same kernels), and the runs
# inside each cold-start file.
pairs=()
for a in 1 2 3 4; do for b in 1 2 3 4; do [ $a -lt $b ] && pairs+=("$R/h100-suite-$a.csv $R/h100-suite-$b.csv"); done; done
pairs+=("$R/h200-suite-2.csv $R/h200-suite-3.csv" "$C/h100-coldstart-old.csv $C/h100-coldstart-new.csv")
for f in h100-coldstart-new h100-coldstart-old h200-coldstart-new; do pairs+=("$C/$f.csv#1 $C/$f.csv#2"); done
for n in 1 2 3; do pairs+=("$C/h100-coldstart-ab.csv#$n $C/h100-coldstart-ab.csv#$((n + 1))"); done
for k in $(cat ids.txt); do
  for p in "${pairs[@]}"; do
    set -- $p
    name="recipe $k: $(basename "${2%%#*}")${2##*.csv} against $(basename "${1%%#*}")${1##*.csv}"
    recipe "$k" "$1" "$2"
    if [ "$RC" -eq 0 ] && grep -q '"verdict": "pass"' "$DIR/gate.json"; then
      pass "$name: pass ($(grep -o 'left out: [0-9]* host-bound lines' "$DIR/out"))"
    else
      fail "$name: exit $RC: $(grep -E 'REGRESSED|MISSING|LOST|^gate' "$DIR/out" | head -5) $(cat "$DIR/err")"
    fi
  done
  [ "$k" = 1 ] && { grep -q '^gate: .* pass$' "$DIR/summary.md" && pass "recipe 1: the Markdown went to the job summary" ||
    fail "recipe 1: no gate line in the job summary: $(head -c 300 "$DIR/summary.md")"; }
done

# ---- what the gate still fails through the recipe ---------------------------------------
# H200 suite-1 ran before the device's profile was measured (its stream and dot default
# sizes then 2^28, after 2^29): not like for like, and the gate says so (missing lines)
recipe 1 "$R/h200-suite-1.csv" "$R/h200-suite-2.csv"
[ "$RC" -eq 1 ] && grep -q '^stream copy float 268435456 .* MISSING$' "$DIR/out" &&
  pass "a profile that changed the default sizes: the old sizes missing, exit 1" ||
  fail "h200 suite-1 against suite-2: exit $RC: $(grep '^gate' "$DIR/out")"
# a planted 20 % regression of the device's own figure (stream copy float)
python3 "$CLI_DIR/rows.py" replay "$R/h100-suite-4.csv" stream,dot,transpose slow.csv
python3 - slow.csv <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["workload"] == "stream" and r["kernel"] == "copy" and r["dtype"] == "float":
        for k in ("t_min_s", "t_median_s", "t_mean_s", "t_max_s"):
            r[k] = "%.9g" % (float(r[k]) / 0.8)
        r["gbps"] = "%.9g" % (float(r["gbps"]) * 0.8)
with open(sys.argv[1], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
EOF
recipe 1 "$R/h100-suite-3.csv" "$TMP/slow.csv"
[ "$RC" -eq 1 ] && grep -Eq '^stream copy float 268435456 .* -19\.[0-9]% +REGRESSED$' "$DIR/out" &&
  grep -q '"verdict": "fail"' "$DIR/gate.json" && pass "a planted 20 % regression fails the recipe (exit 1)" ||
  fail "planted regression: exit $RC: $(grep -E 'stream copy float|^gate' "$DIR/out")"
# the host-bound lines are judged when asked: the CPU baselines of two H100 runs moved
"$CLBENCH" compare "$R/h100-suite-4.csv" --baseline "$R/h100-suite-3.csv" -w dot --host-lines >hl.out 2>&1 &&
  fail "--host-lines: dot cpu1 (-19.7 %) passed" ||
  { grep -q '^dot cpu1 float 268435456 .* REGRESSED$' hl.out && pass "--host-lines judges the CPU baselines: dot cpu1 REGRESSED" ||
    fail "--host-lines: $(grep '^dot cpu1' hl.out)"; }

# ---- on PoCL: the recipe runs and the gate judges (a quick run on a shared machine
# moves more than the threshold: the verdict may go either way, but it is a verdict) ----
for k in $(cat ids.txt); do
  recipe "$k" "" ""
  if { [ "$RC" -eq 0 ] || [ "$RC" -eq 1 ]; } && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"] == ("fail" if int(sys.argv[2]) else "pass") and d["gate"]["counts"]["compared"] > 0' "$DIR/gate.json" "$RC"
  then pass "recipe $k on PoCL: judged, exit $RC, gate.json agrees"
  else fail "recipe $k on PoCL: exit $RC: $(tail -5 "$DIR/out") $(tail -3 "$DIR/err")"; fi
done
finish
