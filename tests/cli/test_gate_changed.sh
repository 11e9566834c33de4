#!/usr/bin/env bash
# A changed kernel is not a regression (docs/COMPARE.md, "Changed kernels"): each row
# carries a fingerprint of what ran (the metric fp: the kernel's visible source and its
# build options), and the gate reads a line whose kernel changed as CHANGED (shown, not
# judged; --strict fails it). Rows older than the fingerprint are judged by the
# revisions each workload declares (git history; per_row is the lecture's kernel [Udacity12]): the H200's suite of 2026-11-23 against
# its run of 2026-11-28, between which transpose per_row, copy2d's report kernels and
# the Dslash kernel were rewritten, reads CHANGED for them, not REGRESSED.
source "$(dirname "$0")/lib.sh"
set -e
S="$CLBENCH_SRC"
OLD="$S/results/runs/2026-11-23/h200-suite-3.csv"
NEW="$S/results/runs/2026-11-28/h200-all.csv"
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 3000 "$TMP/stdout")"; fi; }
hasnt() { if grep -Eq -- "$1" "$TMP/stdout"; then fail "$2: unexpected /$1/: $(grep -E -- "$1" "$TMP/stdout" | head -3)"; else pass "$2"; fi; }

# ---- rows before the fingerprint: the workloads' revisions -----------------------------
expect_status 1 "the H200 of 2026-11-28 against 2026-11-23 (missing lines fail it)" compare "$NEW" --baseline "$OLD"
has '^transpose per_row float 8192x8192 +GB/s +727\.3 ±0\.5% +406\.4 ±0\.7% +-44\.1% +CHANGED$' "transpose per_row: CHANGED"
has '^  changed: the lecture.s per-row kernel: coalesced reads, strided writes \(066ef11, 2026-11-25\)$' "and what changed"
has '^copy2d coalesced float 16384x16384 +GB/s +4175 ±0\.3% +3109 ±0\.2% +-25\.5% +CHANGED$' "copy2d coalesced: CHANGED"
has '^copy2d rows float3 8192x8192 +GB/s .* CHANGED$' "copy2d rows: CHANGED"
has '^dslash reg double 64x64x64x16 links=full,rhs=8 +GFlop/s .* \+41\.2% +CHANGED$' "the rewritten Dslash kernel: CHANGED, not better"
has '^stream copy float 536870912 +GB/s .* same$' "an unchanged kernel is judged as ever"
hasnt 'REGRESSED' "nothing reads REGRESSED"
python3 -c 'import sys; w=[l for l in open(sys.argv[1]).read().splitlines()[1:] if len(l) > 100]; assert not w, w' \
  "$TMP/stdout" && pass "the gate's table fits 100 columns (the baseline's path aside)" || fail "lines over 100 columns"

has '^gate: [0-9]+ compared, 0 regressed, 0 improved, [0-9]+ changed, ' "the summary counts the changed lines"
expect_status 1 "the other way round" compare "$OLD" --baseline "$NEW"
has '^transpose per_row float 8192x8192 .* CHANGED$' "CHANGED either way"
expect_status 1 "--json" compare "$NEW" --baseline "$OLD" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); l=[x for x in d["lines"] if x["kernel"]=="per_row" and x["size"]=="8192x8192"][0]; assert l["state"]=="changed" and "066ef11" in l["changed"] and d["gate"]["counts"]["changed"]>=8 and d["gate"]["counts"]["regressed"]==0, l' \
  "$TMP/stdout" && pass "JSON: state changed, what changed, the counts" || fail "JSON: $(head -c 300 "$TMP/stdout")"
expect_error 1 "the gate fails against" "--strict fails a changed kernel" \
  compare "$NEW" --baseline "$OLD" -w transpose --strict
# the reasons after the first, each on a line of its own (100 columns)
grep -Eq '^  [0-9]+ ran another kernel than the baseline \(CHANGED fails with --strict\)$' "$TMP/stderr" &&
  pass "--strict: the changed kernels named on a line of their own" || fail "--strict reason: $ERR_TXT"

# ---- rows with a fingerprint: PoCL, the same kernels, then one rewritten ------------------
expect_status 0 "a run" run transpose --quick -d "$POCL" -t float -n 3 -o a.csv
rows fp-rows a.csv >fp.out 2>&1 && pass "every ok row carries a fingerprint (s<12 hex>-o<8 hex>)" || fail "fp: $(tail -3 fp.out)"
cp -r "$S/cl" kd
python3 - kd/transpose.cl <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
body = "    for (IDX j = 0; j < n; j++)\n        out[i * n + j] = in[j * m + i];"
assert body in s, "per_row's loop is not where this test expects it"
s = s.replace(body, "    for (IDX j = n; j-- > 0;)   /* the same copy, walked backwards */\n"
                    "        out[i * n + j] = in[j * m + i];")
s = s.replace("__kernel WG_ATTR void copy(", "/* a comment changes nothing */\n__kernel WG_ATTR void copy(", 1)
open(p, "w").write(s)
PY
expect_status 0 "the same run, per_row rewritten (--kernel-dir)" run transpose --quick -d "$POCL" -t float -n 3 --kernel-dir kd -o b.csv
run_cb compare b.csv --baseline a.csv
[ "$RC" -le 1 ] && pass "judged (exit $RC)" || fail "exit $RC: $ERR_TXT"
has '^transpose per_row float [0-9x]+ +GB/s .* CHANGED$' "the rewritten kernel: CHANGED"
has '^  changed: the kernel.s source \(fingerprint s[0-9a-f]{12}-o[0-9a-f]{8}→s[0-9a-f]{12}-o[0-9a-f]{8}\)$' "what changed: its source"
[ "$(grep -c 'CHANGED$' "$TMP/stdout")" -eq 1 ] && pass "only that line: a comment in copy, the others untouched" ||
  fail "changed lines: $(grep 'CHANGED$' "$TMP/stdout")"
finish
