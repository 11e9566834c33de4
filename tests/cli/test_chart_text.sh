#!/usr/bin/env bash
# Chart text stays text: whatever a device name holds, `compare --plot` and
# `report` draw every chart, and every chart shows the name as written (its
# display form: printable text as it is, control bytes, bidi marks and bytes
# that are not UTF-8 as \xNN / \uNNNN), through real gnuplot.
# - The names of the review: two apostrophes in a row (the report lost every
#   chart that named the device; compare --plot exited 3), `&#x202e;` and
#   `&#x3c;b&#x3e;` (a live right-to-left override and a <b> in the SVG), a
#   `&#x` without its `;` (the chart was refused), and a leading blank.
# - A property test: names drawn at random (fixed seeds, so a failure is
#   repeatable) from quotes, backslashes, ampersands and references, @ and
#   backquotes, control bytes, bidi marks and bytes that are not UTF-8.
# The SVG's text is read back by an XML parser (references decoded): each
# name's display form must be one text of some chart.
source "$(dirname "$0")/lib.sh"
set -e
command -v gnuplot >/dev/null || { echo "skip: gnuplot not installed"; exit 77; }
SRC=$CLBENCH_SRC/tests/data/report/pocl-quick.csv

# names.py SEED OUT.csv NAMES.txt FIXTURE: the fixture's rows once per name,
# one run id each (seed 0: the review's names, every workload's rows; else
# random names, stream's rows); NAMES.txt: each name's display form, one a
# line (JSON strings)
cat > names.py <<'PY'
import csv, json, random, sys
seed, out, shown = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rows = [r for r in csv.DictReader(open(sys.argv[4], newline=""))
        if seed == 0 or r["workload"] == "stream"]   # the review's names: every workload's charts
if seed == 0:
    names = ["Vendor's ''Turbo'' GPU", "&#x202e;RTL &#x3c;b&#x3e;bold&#x3c;/b&#x3e;",
             "amp &#x no semi & &amp; &lt;", " lead and trail ", 'say "hi" \\n\\\\'.encode(),
             "''''", "'", "\""]
    names = [n if isinstance(n, bytes) else n.encode() for n in names]
else:
    rnd = random.Random(seed)
    parts = [b"'", b"''", b'"', b"\\", b"\\n", b"&", b"&#x", b"&#x202e;", b"&#x3c;b&#x3e;",
             b"&amp;", b"&lt;", b"<b>", b"`id`", b"@x", b"$(id)", b"#", b"%s", b"\t", b"\x01",
             b"\x1b[1m", b"\x7f", "\u202e".encode(), "\u2066".encode(), "\u200f".encode(),
             b"\xff", b"\xc3", b"\xe2\x82", "é".encode(), "日本".encode(), b" ", b"x", b"GPU"]
    names = [str(i).encode() + b"".join(rnd.choice(parts) for _ in range(rnd.randint(1, 6)))
             for i in range(8)]
def display(b):   # cmp_esc(s, 0): include/clb_text.h
    out, i = [], 0
    while i < len(b):
        for n in (4, 3, 2, 1):
            try:
                ch = b[i:i + n].decode("utf-8")
                if len(ch) == 1:
                    break
            except UnicodeDecodeError:
                pass
        else:
            out.append("\\x%02x" % b[i]); i += 1; continue
        cp = ord(ch)
        if ch == "\\": out.append("\\\\")
        elif ch == "\n": out.append("\\n")
        elif ch == "\r": out.append("\\r")
        elif ch == "\t": out.append("\\t")
        elif cp < 0x20 or cp == 0x7f: out.append("\\x%02x" % cp)
        elif (0x80 <= cp <= 0x9f or cp in (0x2028, 0x2029, 0x200e, 0x200f, 0xfeff)
              or 0x202a <= cp <= 0x202e or 0x2066 <= cp <= 0x2069):
            out.append("\\u%04x" % cp)
        else: out.append(ch)
        i += n
    return "".join(out)
with open(out, "w", newline="", encoding="utf-8", errors="surrogateescape") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    for k, n in enumerate(names):
        for r in rows:
            r2 = dict(r, device=n.decode("utf-8", "surrogateescape"), run_id="n%d" % k)
            w.writerow(r2)
open(shown, "w").write("".join(json.dumps(display(n)) + "\n" for n in names))
PY

# texts.py FILE...: every <text> of every SVG in the files (figures or a page), its
# XML text decoded, one JSON string a line; fails when an SVG is not XML or
# holds a raw bidi override or an element other than gnuplot's
cat > texts.py <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
data = "".join(open(f, encoding="utf-8").read() for f in sys.argv[1:])
svgs = re.findall(r"<svg\b.*?</svg>", data, re.S)
assert svgs, "no svg"
for s in svgs:
    s = re.sub(r"\bxlink:", "xlink_", s)
    root = ET.fromstring(s)
    for e in root.iter():
        tag = e.tag.split("}")[-1]
        assert tag not in ("b", "script", "a", "foreignObject"), "a <%s> element" % tag
        if tag == "text":
            t = "".join(e.itertext())
            assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f]", t), "a raw bidi mark: %r" % t
            print(json.dumps(t))
print(json.dumps("#svgs %d" % len(svgs)))
PY

# shown NAMES.txt TEXTS.txt WHAT: every name is one text of a chart
shown() {
  python3 - "$1" "$2" "$3" <<'PY' && pass "$3: every name shown as written" || fail "$3: names not shown as written"
import json, sys
names = [json.loads(l) for l in open(sys.argv[1])]
texts = [json.loads(l) for l in open(sys.argv[2])]
missing = [n for n in names if not any(t == n or t.endswith(" " + n) or t.startswith(n + " ") for t in texts)]
if missing:
    print("FAIL: %s: not among the charts' texts: %s" % (sys.argv[3], missing), file=sys.stderr)
    sys.exit(1)
PY
}

# plain names: how many charts the page and compare --plot have for these rows
python3 names.py 0 plain.csv plain.txt "$SRC"
python3 - <<'PY'
import csv
rows = list(csv.DictReader(open("plain.csv", newline="", encoding="utf-8", errors="surrogateescape")))
w = csv.DictWriter(open("plain.csv", "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
for r in rows:
    r["device"] = "device " + r["run_id"]
    w.writerow(r)
PY
run_cb report plain.csv -o plain.html
[ "$RC" -eq 0 ] || fail "report of plain names: exit $RC: $ERR_TXT"
charts=$(python3 texts.py plain.html | tail -n 1)
run_cb compare plain.csv --include-cache --plot plain.svg
figs=$(python3 texts.py plain*.svg | tail -n 1)
echo "plain names: the page has $charts, compare --plot $figs"

for seed in 0 1 2 3; do
  python3 names.py $seed n$seed.csv n$seed.txt "$SRC"
  run_cb compare n$seed.csv --include-cache --plot n$seed.svg
  if [ "$RC" -eq 0 ] && python3 texts.py n$seed*.svg > t$seed.txt; then
    got=$(tail -n 1 t$seed.txt)
    [ $seed -ne 0 ] || [ "$got" = "$figs" ] && pass "seed $seed: compare --plot drew every figure ($got)" ||
      fail "seed $seed: compare --plot drew $got, plain names $figs"
    shown n$seed.txt t$seed.txt "seed $seed: compare --plot"
  else
    fail "seed $seed: compare --plot: exit $RC: $ERR_TXT $(python3 texts.py n$seed.svg 2>&1 | tail -n 1)"
  fi
  run_cb report n$seed.csv -o n$seed.html
  if [ "$RC" -eq 0 ] && ! grep -q "not drawn" "$TMP/stderr" && python3 texts.py n$seed.html > r$seed.txt; then
    got=$(tail -n 1 r$seed.txt)
    [ $seed -ne 0 ] || [ "$got" = "$charts" ] && pass "seed $seed: report drew every chart ($got)" ||
      fail "seed $seed: report drew $got, plain names $charts"
    shown n$seed.txt r$seed.txt "seed $seed: report"
  else
    fail "seed $seed: report: exit $RC: $ERR_TXT $(python3 texts.py n$seed.html 2>&1 | tail -n 1)"
  fi
done
finish
