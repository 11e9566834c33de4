#!/usr/bin/env bash
# The regression gate, clbench compare --baseline (docs/COMPARE.md, "The gate"):
# what a line is (case parameters, never tuning ones), a changed tuning named,
# and the roles every workload declares, as docs/COMPARE.md lists them.
# Fixtures: tests/data/gate/ (make_fixtures.py; made-up figures).
source "$(dirname "$0")/lib.sh"
set -e
D="$CLBENCH_SRC/tests/data/gate"
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 3000 "$TMP/stdout")"; fi; }

# ---- every parameter of every workload says its role; the doc's table is theirs ----
names=$("$CLBENCH" --help | awk '/^workloads:/{w=1;next} w&&NF{print $1} w&&!NF{exit}')
[ -n "$names" ] || fail "no workload names from --help"
for w in $names; do "$CLBENCH" "$w" --help >"$TMP/help.$w" || fail "$w --help"; done
python3 - "$TMP" "$CLBENCH_SRC/docs/COMPARE.md" $names <<'PY' >"$TMP/roles.out" 2>&1 && pass "every parameter declares case or tuning; docs/COMPARE.md lists them as the code does" || fail "roles: $(cat "$TMP/roles.out")"
import re, sys
tmp, doc, names = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = ["| workload | case parameters | tuning parameters |", "|---|---|---|"]
for w in names:
    roles = {"case": [], "tuning": []}
    section = None
    for line in open("%s/help.%s" % (tmp, w)):
        if line.startswith("parameters ("):
            section = "head"
        elif section == "head":
            section = "param" if line.rstrip().endswith("):") else "head"
        elif line.startswith("keys of its rows"):
            section = "row"
        elif section in ("param", "row") and line.startswith("  ") and not line.startswith("   "):
            m = re.match(r"  (\S+) +(\S+) ", line)
            if not m:
                continue
            key, role = m.groups()
            assert role in roles, "%s: parameter %s has role '%s'" % (w, key, role)
            roles[role].append(key + (" (row)" if section == "row" else ""))
        elif section in ("param", "row") and not line.startswith(" "):
            section = None
    cell = lambda l: ", ".join("`%s`" % k.replace(" (row)", "") + (" (row)" if "(row)" in k else "")
                               for k in l) or "-"
    rows.append("| %s | %s | %s |" % (w, cell(roles["case"]), cell(roles["tuning"])))
want = "\n".join(rows)
text = open(doc).read()
m = re.search(r"<!-- roles: begin.*?-->\n(.*?)\n<!-- roles: end -->", text, re.S)
assert m, "docs/COMPARE.md has no roles table between <!-- roles: begin --> and <!-- roles: end -->"
if m.group(1).strip() != want:
    sys.exit("docs/COMPARE.md's roles table differs from the workloads' declarations; it should read:\n" + want)
PY

# ---- tuning is not what a line is: a profile that moved local, 20 % slower ----
expect_error 1 "regressed" "tuning-only change with a 20 % slowdown: exit 1" \
  compare "$D/tuned.csv" --baseline "$D/base.csv"
has '^stream +copy +float +268435456 +tuned: local 128→1024 +1000 .*800\.0 .*-20\.0% +REGRESSED' \
  "the line is matched and the tuning change named"
has '^stream +triad +float +268435456 +tuned: local 128→1024 ' "an unchanged figure shows its changed tuning too"
has '^dslash +reg +float +16x16x16x16 +links=full,rhs=2 ' "case parameters keep lines apart"
expect_error 1 "regressed" "the same from JSON Lines" compare "$D/tuned.jsonl" --baseline "$D/base.csv"
expect_status 0 "an identical run" compare "$D/identical.csv" --baseline "$D/base.csv"
has '^stream +copy +float +268435456 +ilp=1,local=128,vec=4 ' "the tuning shows where it did not change"
finish
