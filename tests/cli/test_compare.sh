#!/usr/bin/env bash
# clbench compare on the committed fixtures of tests/data/compare: table
# content, repeated runs, --relative-to arithmetic, filters, sizes, Markdown,
# JSON, the baseline gate, plots (PNG and SVG), gnuplot missing or failing,
# crafted names (shell and gnuplot syntax, newlines, escapes, '../'), large
# inputs, and every kind of bad input.
source "$(dirname "$0")/lib.sh"
set -e
D="$CLBENCH_SRC/tests/data/compare"
ALL=("$D/gpu.csv" "$D/cpu.csv" "$D/reference.csv")
mkdir -p "$TMP/tmp"
export TMPDIR="$TMP/tmp"   # the plot's scratch directory must be gone afterwards

# has LINE-PATTERN: stdout has a line matching the extended regex
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 3000 "$TMP/stdout")"; fi; }
hasnt() { if grep -Eq -- "$1" "$TMP/stdout"; then fail "$2: unexpected /$1/"; else pass "$2"; fi; }
count_lines() { grep -Ec -- "$1" "$TMP/stdout" || true; }
# pwned: no file that a crafted name could have made, anywhere under $TMP
pwned() { if find "$TMP" -name 'PWNED*' | grep -q .; then fail "$1: $(find "$TMP" -name 'PWNED*')"; else pass "$1"; fi; }

# ---- the table ------------------------------------------------------------
expect_status 0 "compare three files, size by size" compare "${ALL[@]}" --by-size
# columns: measured devices, the same device name on two hosts, published sources
has '^\s+\[1\] NVIDIA H100 80GB HBM3  \(gpu\.csv; peak 3352 GB/s\)' "H100 column with its file and its peak derived from pct_peak_bw"
has '^\s+\[5\] Tesla K20X \(Matrix transpose whitepaper\) +\(published; peak 250 GB/s\)' "K20X peak from the tesla_k20x profile (longest name match)"
has '\[2\] pthread-haswell-AMD EPYC 7B13 64-Core Processor @vm' "same device on two hosts: @vm"
has '\[3\] pthread-haswell-AMD EPYC 7B13 64-Core Processor @ws' "same device on two hosts: @ws"
has '\[6\] Tesla K20c, "Kepler" GK110 \(BabelStream 1.0; ECC on\)' "reference column: comma and quotes in the name, source, driver"
has '\[7\] Tesla K20c, "Kepler" GK110 \(BabelStream 1.0; ECC off\)' "ECC off is a column of its own"
# repeated runs: best 3000 of 3000 and 2940, spread (3000-2940)/2/3000 = 1.0%
has '^stream +copy +float +268435456 +GB/s +3000 ±1\.0% +14\.00 +35\.00 +- +- +- +-$' "stream copy float: best and spread, both CPUs"
has '^stream +copy +double +268435456 +GB/s +3040 ±1\.0% +13\.50 +33\.75 +- +- +150\.4 +169\.2$' "stream copy double with the BabelStream figures"
has '^transpose +naive +double +8192x8192 +GB/s +failed +skipped( +-)+$' "failed and skipped configurations shown as such"
has '^transpose +copy +float +2048x2048 +GB/s( +-)+ +96\.90 +147\.6( +-)+$' "published figures at their own size"
# the swept parameter (rhs) makes lines of their own; the vector width does not
n=$(count_lines '^dslash +dslash +float +32x32x32x16 +rhs=[1-4] ')
[ "$n" -eq 4 ] && pass "rhs sweep: four lines" || fail "rhs sweep: $n lines"
hasnt 'vec=' "tuning parameters that are not swept stay out of the table"
n=$(count_lines '^(stream|transpose|dslash) ')
[ "$n" -eq 16 ] && pass "16 table lines" || fail "expected 16 table lines, got $n"
# a column from several files lists them
expect_status 0 "a column from two files" compare "$D/gpu.csv" "$D/within.csv" -w stream
has '^\s+\[1\] NVIDIA H100 80GB HBM3  \(gpu\.csv, within\.csv; peak 3352 GB/s\)$' "both files named"

# ---- metrics ----------------------------------------------------------------
expect_status 0 "--metric pct_peak" compare "$D/gpu.csv" --metric pct_peak -w stream -k copy -t float
has '^stream +copy +float +268435456 +89\.50 ±1\.0%$' "pct_peak: 3000 / 3352 = 89.50%"
expect_status 0 "--metric gbps_best" compare "$D/gpu.csv" -m gbps_best -w transpose -k naive -t float
has '^transpose +naive +float +8192x8192 +622\.2$' "gbps_best: 610 x 1.02"
expect_status 0 "--metric gflops drops lines without flops" compare "$D/gpu.csv" "$D/cpu.csv" -m gflops -w stream
n=$(count_lines '^stream +copy ')
[ "$n" -eq 0 ] && pass "copy has no GFlop/s line" || fail "copy lines with gflops: $n"
has '^stream +triad +float ' "triad has GFlop/s"

# ---- --relative-to ------------------------------------------------------------
expect_status 0 "--relative-to 'GTX 280'" compare "${ALL[@]}" -w transpose -t float --any-size --relative-to 'GTX 280'
# K20X/GTX 280: naive 92.0/2.2 = 41.82, copy 147.6/96.9 = 1.52; H100 diagonal 2790/69.5 = 40.14
has '^transpose +naive +float +any +GB/s +277\.27 +1\.41 +3\.52 +1\.00 +41\.82$' "naive relative to GTX 280"
has '^transpose +diagonal +float +any +GB/s +40\.14 +0\.141! +0\.353 +1\.00 +1\.54$' "diagonal relative to GTX 280, '!' for a failed run beside a passing one"
has "^'!': other runs of that configuration failed" "the '!' is explained under the table"
has '^transpose +copy +float +any +GB/s +- +- +- +1\.00 +1\.52$' "copy relative to GTX 280, no figure where the others lack one"
has 'relative to GeForce GTX 280 \(Matrix transpose whitepaper\)' "title names the reference column"
expect_status 0 "--relative-to h100 (case-insensitive)" compare "${ALL[@]}" -w stream -k triad -t double -r h100 --by-size
has '^stream +triad +double +268435456 +GB/s +1\.00 ±1\.0% +0\.0044 +0\.011 +0\.0494 +0\.0563$' "triad double relative to the H100"
expect_error 2 "matches several columns" "ambiguous --relative-to" compare "${ALL[@]}" -r tesla
expect_error 2 "matches no column" "unknown --relative-to" compare "${ALL[@]}" -r 'GTX 480'

# ---- filters (case-insensitive; an empty selection names what exists) -------------
expect_status 0 "filters" compare "${ALL[@]}" -w transpose -k naive,diagonal -t float -s 8192x8192
n=$(count_lines '^transpose ')
[ "$n" -eq 2 ] && pass "two lines after the filters" || fail "filters: $n lines"
hasnt 'BabelStream' "columns without rows in the selection are gone"
expect_status 0 "--dtype double" compare "${ALL[@]}" --dtype double -w stream
n=$(count_lines '^stream .* float ')
[ "$n" -eq 0 ] && pass "no float lines" || fail "float lines: $n"
expect_status 0 "filters ignore case" compare "${ALL[@]}" -w STREAM -k Copy -t FLOAT
n=$(count_lines '^stream +copy +float ')
[ "$n" -eq 1 ] && pass "STREAM/Copy/FLOAT select stream copy float" || fail "case-insensitive filters: $n lines"
expect_error 2 "no rows for --workload strem \(workloads in these files: stream, transpose, dslash\)$" \
  "a misspelt workload lists the workloads" compare "${ALL[@]}" -w strem
expect_error 2 "no rows for --kernel nosuch \(kernels in these files with --workload stream: copy, triad\)$" \
  "a misspelt kernel lists the kernels of the selection" compare "${ALL[@]}" -w stream -k nosuch

# ---- sweeps and sizes -----------------------------------------------------------
expect_status 0 "--sweep none" compare "$D/gpu.csv" -w dslash -m gflops --sweep none
n=$(count_lines '^dslash ')
has '^dslash +dslash +float +32x32x32x16 +5600 ±27\.6%$' "--sweep none: best over rhs=1..4, spread (5600-2510)/2/5600"
[ "$n" -eq 1 ] && pass "--sweep none: one line" || fail "--sweep none: $n lines"
expect_status 0 "--sweep vec" compare "$D/gpu.csv" -w stream -k copy --sweep vec
has '^stream +copy +double +268435456 +vec=2 +GB/s +3040 ±1\.0%$' "--sweep vec names the key"
expect_status 0 "--any-size" compare "${ALL[@]}" -w transpose -k naive -t float --any-size
has '^transpose +naive +float +any +GB/s +610\.0 +3\.10 +7\.75 +2\.20 +92\.00$' "--any-size: one line whatever the size"
# 2^28, 256M and 268435456 are one size, printed in one form
expect_status 0 "sizes written three ways" compare "$D/sizes.csv"
has '^stream +copy +float +268435456 +GB/s +12\.00 ±8\.3%$' "2^28 = 256M = 268435456: one line, three runs"
has '^stream +copy +float +1048576 +GB/s +90\.00 ±5\.6% C$' "1M = 2^20: one line, cache-resident (C)"
n=$(count_lines '^stream ')
[ "$n" -eq 2 ] && pass "two sizes, two lines" || fail "sizes: $n lines"
expect_status 0 "--size 2^28 matches 268435456" compare "$D/sizes.csv" --size 2^28
has '^stream +copy +float +268435456 ' "size filter in canonical form"
# --any-size leaves cache-resident rows out unless --include-cache
expect_status 0 "--any-size without cache rows" compare "$D/sizes.csv" --any-size
has '^stream +copy +float +any +GB/s +12\.00 ±8\.3%$' "cache_resident rows (90 GB/s) left out"
expect_status 0 "--any-size --include-cache" compare "$D/sizes.csv" --any-size --include-cache
has '^stream +copy +float +any +GB/s +90\.00 ' "--include-cache keeps them"
expect_status 0 "only cache rows: kept, not left out without a word" compare "$D/sizes.csv" --any-size -s 1M
has '^stream +copy +float +any +GB/s +90\.00 ±5\.6% C$' "the cache-resident figure, marked C"
has '^\[1\] .*: every selected row of stream is cache-resident: kept, marked C$' "and said so under the table"
expect_status 0 "help names --include-cache" compare --help
has '--include-cache' "--include-cache in the help"

# ---- Markdown and JSON ----------------------------------------------------------
expect_status 0 "--markdown" compare "${ALL[@]}" --markdown -w transpose --any-size
has '^\| workload \| kernel \| dtype \| size \| unit \| NVIDIA H100 80GB HBM3 \| .* \| Tesla K20X \(Matrix transpose whitepaper\) \|$' "markdown header with full names"
has '^\|---\|---\|---\|---\|---\|(---:\|)+$' "markdown separator, figures right-aligned"
has '^\| transpose \| naive \| float \| any \| GB/s \| 610\.0 \| 3\.10 \| 7\.75 \| 2\.20 \| 92\.00 \|$' "markdown row"
expect_status 0 "--json" compare "${ALL[@]}" --json --by-size
if rows compare-json "$TMP/stdout"
then pass "--json: the document's columns, lines and values"; else fail "--json document: $(head -c 400 "$TMP/stdout")"; fi
expect_error 2 "give one" "--markdown with --json" compare "$D/gpu.csv" --markdown --json

# ---- --baseline: a CI gate (more in test_gate.sh) ----------------------------------
expect_status 0 "a run against itself" compare "$D/gpu.csv" --baseline "$D/base.csv"
has '^gate: 11 compared, 0 regressed, .*; pass$' "no line regressed"
has '^  .* 1 without a baseline figure$' "the line without a figure in the baseline counted"
expect_error 1 "the gate fails against '.*base\.csv': 1 line regressed by more than 5% outside the runs' spread" \
  "planted regression (-10%)" compare "$D/regressed.csv" --baseline "$D/base.csv"
has '^stream triad double 268435456 +GB/s +3070 ±2\.0% +2763 ±2\.0% +-10\.0% +REGRESSED$' "the regressed line with its delta"
has '^stream triad float 268435456 +GB/s +3030 ±2\.0% +3030 ±2\.0% +\+0\.0% +same$' "an unchanged line"
has '^gate: 11 compared, 1 regressed, .*; FAIL$' "the summary fails"
has '^  worst: stream triad double 268435456, -10\.0%$' "the summary names the worst"
expect_status 0 "-3% is within the default 5%" compare "$D/within.csv" --baseline "$D/base.csv"
expect_status 0 "-3% beyond --threshold 2 but inside the runs' spread" compare "$D/within.csv" --baseline "$D/base.csv" --threshold 2
has '^stream copy float 268435456 .* -3\.0% +noise$' "the line within noise says so"
expect_status 1 "-3% beyond --threshold 2 --strict" compare "$D/within.csv" --baseline "$D/base.csv" --threshold 2 --strict
expect_status 1 "--json with --baseline" compare "$D/regressed.csv" --baseline "$D/base.csv" --json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=[l for l in d["lines"] if l["state"]=="regressed"]; assert d["failed"]==1 and d["verdict"]=="fail" and len(r)==1 and abs(r[0]["delta_pct"]+10)<1e-6 and r[0]["kernel"]=="triad"' "$TMP/stdout"
then pass "--baseline --json gives the deltas"; else fail "--baseline --json: $(head -c 300 "$TMP/stdout")"; fi
expect_error 2 "another device \(--cross-device" "another device against the baseline" compare "$D/cpu.csv" --baseline "$D/base.csv" -w stream
# vec is a tuning parameter (clbench stream --help): vec=8 against vec=4 is one line, its change named
expect_status 1 "another device with --cross-device" compare "$D/cpu.csv" --baseline "$D/base.csv" -w stream --cross-device
has '^  tuned: vec 4→8$' "the tuning that changed is named"
expect_error 2 "--threshold 'five' is not a percentage" "bad threshold" compare "$D/gpu.csv" --baseline "$D/base.csv" --threshold five
expect_error 2 "--threshold goes with --baseline" "threshold alone" compare "$D/gpu.csv" --threshold 5
expect_error 2 "give one" "--baseline with --plot" compare "$D/gpu.csv" --baseline "$D/base.csv" --plot x.svg
expect_error 2 "cannot read .*nosuch\.csv" "missing baseline" compare "$D/gpu.csv" --baseline "$D/nosuch.csv"
expect_error 2 "no rows for --workload dslash \(workloads in the baseline" "baseline without the selection" \
  compare "$D/gpu.csv" --baseline "$D/cpu.csv" -w dslash

# ---- crafted names: nothing runs, no path is built from them, output stays one line each ----
mkdir -p nest/a/b
( cd nest/a/b && TMPDIR="$TMP/tmp" "$CLBENCH" compare "$D/crafted.csv" --by-size ) >"$TMP/stdout" 2>"$TMP/stderr" || fail "crafted table: $(cat "$TMP/stderr")"
if grep -q $'\x1b\|\r' "$TMP/stdout"; then fail "a raw control byte reached the terminal"; else pass "no raw control byte in the table"; fi
has '^  \[2\] Evil2\\nsecond line\\x1b\[31m red\\x1b\[0m\\r\\t  \(crafted\.csv\)$' "newline, escape, CR and tab shown escaped"
has '^  \[3\] Evil3 \\u202e rtl \\xff\\xfe  \(crafted\.csv\)$' "an RTL override and bytes that are not UTF-8 shown escaped"
has '^\.\./\.\./x +line\\nbreak +float ' "a newline in a kernel does not break the line"
n=$(grep -c . "$TMP/stdout")
[ "$n" -eq 12 ] && pass "crafted table: 12 lines, one per entry" || fail "crafted table has $n lines"
( cd nest/a/b && "$CLBENCH" compare "$D/crafted.csv" --markdown ) >"$TMP/stdout" 2>/dev/null
has '\\\|pipe \|' "Markdown escapes '|'"
expect_error 2 "matches no column \(columns: .*Evil2\\\\nsecond line" "an error listing crafted names is one line" \
  compare "$D/crafted.csv" -r nosuch
GP=$(command -v gnuplot || true)
if [ -n "$GP" ]; then
  ( cd nest/a/b && "$CLBENCH" compare "$D/crafted.csv" --plot out.svg ) >"$TMP/stdout" 2>"$TMP/stderr" &&
    pass "crafted names plotted" || fail "crafted plot: $(cat "$TMP/stderr")"
  pwned "crafted names ran nothing (backquotes, \$(), @, quotes in every field)"
  got=$(cd nest && find . -type f | sort | tr '\n' ' ')
  want="./a/b/out-______x.svg ./a/b/out-sw__id_.svg ./a/b/out-w__.svg "
  [ "$got" = "$want" ] && pass "figure names are slugs, nothing written outside: $got" || fail "files: '$got', expected '$want'"
  for f in nest/a/b/*.svg; do
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$f" 2>/dev/null &&
      pass "$f is well-formed XML" || fail "$f is not well-formed XML"
  done
  grep -q 'Evil2\\nsecond line\\x1b\[31m' nest/a/b/out-______x.svg && pass "plot legend shows the escapes" || fail "plot legend escapes"
  # the old fixed-size script buffer, cut inside a quoted title, flipped the quoting
  ( cd nest && "$CLBENCH" compare "$D/inject.csv" --plot inject.svg ) >"$TMP/stdout" 2>"$TMP/stderr" &&
    pass "300 series with long names plotted" || fail "inject plot: $(cat "$TMP/stderr")"
  pwned "a script past 64 KiB runs nothing"
  n=$(grep -c '<path' nest/inject.svg || true)
  [ "$n" -ge 300 ] && pass "300 series drawn ($n paths)" || fail "$n paths for 300 series"
  ls -A "$TMPDIR" | grep -q . && fail "scratch left in TMPDIR: $(ls -A "$TMPDIR")" || pass "temporary directory removed"
fi

# ---- plots ----------------------------------------------------------------------
if [ -n "$GP" ]; then
  expect_status 0 "--plot svg, one workload" compare "${ALL[@]}" -w stream --plot fig.svg
  [ -s fig.svg ] && grep -q '<svg' fig.svg && pass "fig.svg is an SVG" || fail "fig.svg missing or not SVG"
  grep -q 'peak 3352 GB/s' fig.svg && pass "peak line in the legend" || fail "no peak line in fig.svg"
  grep -q 'Tesla K20c, "Kepler" GK110 (BabelStream 1.0; ECC on)' fig.svg && pass "legend names the reference" || fail "legend"
  mkdir -p out
  expect_status 0 "--plot png, three workloads" compare "${ALL[@]}" --plot out/all.png
  for w in stream transpose dslash; do
    f="out/all-$w.png"
    if [ -s "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = "PNG" ]; then pass "$f is a PNG"; else fail "$f missing or not PNG"; fi
  done
  [ ! -e out/all.png ] && pass "several workloads: OUT-<workload>.png only" || fail "out/all.png written"
  expect_status 0 "--plot svg, a sweep" compare "$D/gpu.csv" -w dslash -m gflops --plot sweep.svg
  grep -q '>rhs<' sweep.svg && pass "sweep x axis is rhs" || fail "sweep axis label"
  # the peak belongs to device work: the registry's counts decide (stream: yes;
  # a workload it does not know: no line)
  expect_status 0 "--plot, peaks by unit" compare "$D/peaks.csv" --plot pk.svg
  grep -q 'Peak Test GPU peak 1000 GB/s' pk-stream.svg && pass "stream: the peak line" || fail "stream figure lacks its peak"
  for w in unit_xfer notregistered; do
    # (the figure must be there: a missing one has no peak line either)
    if [ ! -s "pk-$w.svg" ] || ! grep -q '<svg' "pk-$w.svg"; then fail "$w: no figure pk-$w.svg"
    elif grep -q 'peak 1000 GB/s' "pk-$w.svg"; then
      fail "$w: a peak drawn over rows the registry does not count as device work"
    else pass "$w: a figure without a peak line"; fi
  done
  ls -A "$TMPDIR" | grep -q . && fail "scratch left in TMPDIR: $(ls -A "$TMPDIR")" || pass "temporary directory removed"
else
  skip_part "gnuplot is not installed here, plot success not tested"
fi
mkdir -p out
ls -A out | grep -q '^\.' && fail "temporary figure left: $(ls -A out)" || pass "no temporary figure left"
# gnuplot missing: the table is still printed, one line says how to install it
CLBENCH_GNUPLOT=/nonexistent/gnuplot expect_error 3 "apt-get install gnuplot-nox" "CLBENCH_GNUPLOT missing" compare "$D/gpu.csv" --plot miss.svg
has '^stream +copy +float ' "table printed without gnuplot"
[ ! -e miss.svg ] && pass "no figure without gnuplot" || fail "miss.svg written"
# (the PATH without gnuplot holds only the binary itself: run it directly)
set +e
PATH=/nonexistent "$CLBENCH" compare "$D/gpu.csv" --plot miss.png >nopath.out 2>nopath.err
rc=$?
set -e
if [ "$rc" -eq 3 ] && [ "$(wc -l <nopath.err)" -eq 1 ] && grep -q "^clbench: 'gnuplot' is not on PATH: install it with 'apt-get install gnuplot-nox'" nopath.err &&
   grep -q '^stream ' nopath.out && [ ! -e miss.png ]; then pass "gnuplot not on PATH: $(cat nopath.err)"
else fail "gnuplot not on PATH: exit $rc, stderr $(cat nopath.err)"; fi
# gnuplot failing after writing half a file: nothing is left behind, and its
# own error lines are in the message (the last three that name a line)
cat >fakegp <<'EOF'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1")
printf 'partial' >"$out"
echo "\"$1\" line 3: first warning" >&2
echo "plot 'x'" >&2
echo "     ^" >&2
echo "\"$1\" line 9: some gnuplot error" >&2
printf '"%s" line 10: with \033[31m escape\n' "$1" >&2
exit 1
EOF
chmod +x fakegp
mkdir -p fail
CLBENCH_GNUPLOT=$TMP/fakegp expect_error 3 "gnuplot failed to draw 'fail/x-stream\.svg': \"fig1\.gp\" line 3: first warning \| \"fig1\.gp\" line 9: some gnuplot error \| \"fig1\.gp\" line 10: with \\\\x1b\[31m escape$" \
  "gnuplot fails: its error lines, escaped, on one line" compare "${ALL[@]}" --plot fail/x.svg
[ -z "$(ls -A fail)" ] && pass "no partial figure after a gnuplot failure" || fail "left in fail/: $(ls -A fail)"
ls -A "$TMPDIR" | grep -q . && fail "scratch left in TMPDIR after a failure: $(ls -A "$TMPDIR")" || pass "temporary directory removed after a failure"

# ---- size: long names, many lines, many columns -----------------------------------
# (made here: rows.py compare-gen, the header of the fixtures)
gen() {  # gen KIND ROWS OUT
  rows compare-gen "$D/gpu.csv" "$@"
}
gen long 2 long.csv
expect_status 0 "names of 5000 bytes" compare long.csv
n=$(grep -c "D\{5000\} end" "$TMP/stdout" || true)
[ "$n" -eq 1 ] && pass "a 5000-byte device name shown whole" || fail "device name cut"
has "^W{1000} +K{700} +float +1048576 +p=1 q=v{300}0 " "a 1000-byte workload, 700-byte kernel, 300-byte sweep shown whole"
# 100k rows of 100k lines: linear-time compare (the old one took minutes)
gen lines 100000 lines.csv
start=$(date +%s)
set +e
timeout 60 "$CLBENCH" compare lines.csv >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
set -e
[ "$rc" -eq 0 ] && [ "$(grep -c '^wl ' "$TMP/stdout")" -eq 100000 ] &&
  pass "100k lines in $(($(date +%s) - start)) s" || fail "100k lines: exit $rc (124: over 60 s) $(head -c 200 "$TMP/stderr")"
# 40k lines plotted with a small stack: no array of them on the stack
set +e
head -40001 lines.csv >lines40k.csv
(ulimit -s 256; CLBENCH_GNUPLOT=/bin/false exec "$CLBENCH" compare lines40k.csv --plot big.svg) >/dev/null 2>"$TMP/stderr"
rc=$?
set -e
[ "$rc" -eq 3 ] && grep -q "gnuplot failed to draw 'big\.svg'" "$TMP/stderr" && [ ! -e big.svg ] &&
  pass "40k lines with a 256 KiB stack: gnuplot's failure reported, no crash" || fail "40k lines, small stack: exit $rc: $(cat "$TMP/stderr")"
gen cols 20000 cols.csv
set +e
(ulimit -s 256; exec "$CLBENCH" compare cols.csv) >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
set -e
[ "$rc" -eq 0 ] && [ "$(grep -c '^  \[[0-9]*\] Dev ' "$TMP/stdout")" -eq 20000 ] &&
  pass "20000 columns with a 256 KiB stack" || fail "20000 columns: exit $rc: $(head -c 200 "$TMP/stderr")"

# an output that cannot be written: exit 3, one line
for fmt in "" --markdown --json; do
  set +e
  "$CLBENCH" compare "$D/gpu.csv" $fmt >/dev/full 2>"$TMP/stderr"
  rc=$?
  set -e
  [ "$rc" -eq 3 ] && [ "$(grep -c . "$TMP/stderr")" -eq 1 ] && grep -q "^clbench: cannot write the .*output: No space left on device" "$TMP/stderr" &&
    pass "a full output ${fmt:-(text)}: exit 3, one line" || fail "full output ${fmt:-(text)}: exit $rc: $(cat "$TMP/stderr")"
done

# ---- bad input ---------------------------------------------------------------------
expect_error 2 "cannot read .*missing\.csv" "missing file" compare "$D/gpu.csv" "$D/missing.csv"
expect_error 2 "is a directory, not a results file" "a directory" compare "$D"
expect_error 2 "notcsv\.csv: not a clbench results file" "not clbench CSV" compare "$D/notcsv.csv"
expect_error 2 "empty\.csv: empty file" "empty file" compare "$D/empty.csv"
expect_error 2 "otherversion\.csv: not a clbench results file \(column 25 is 'gbps_median'" "header of another version" compare "$D/otherversion.csv"
expect_error 2 "fewcols\.csv: not a clbench results file \(header has 29 columns" "header with fewer columns" compare "$D/fewcols.csv"
expect_error 2 "nonnumeric\.csv:2: column gbps is not a non-negative decimal number: 'fast'" "non-numeric figure" compare "$D/nonnumeric.csv"
expect_error 2 "no rows for --workload nosuch \(workloads in these files: stream, transpose, dslash\)" "empty selection" compare "${ALL[@]}" -w nosuch
expect_error 2 "no rows for --workload a\\\\nb " "a filter with a newline: one line" compare "${ALL[@]}" -w $'a\nb'
expect_error 2 "no selected row has a gflops figure" "metric without figures" compare "$D/reference.csv" -m gflops
expect_error 2 "unknown metric 'gbs' \(metrics: auto, gbps, gbps_best, gflops, pct_peak, pct_measured_peak, gflops_per_watt" "bad metric" compare "$D/gpu.csv" -m gbs
expect_error 2 "must end in \.svg or \.png" "bad plot name" compare "$D/gpu.csv" --plot fig.pdf
expect_error 2 "must end in \.svg or \.png" "plot name without a stem" compare "$D/gpu.csv" --plot out/.svg
expect_error 2 "cannot write to directory '/nonexistent'" "plot directory missing" compare "$D/gpu.csv" --plot /nonexistent/fig.svg
expect_error 2 "no results file given" "no file" compare
expect_error 2 "unknown option '--bogus'" "unknown option" compare --bogus "$D/gpu.csv"
[ ! -e fig.pdf ] && pass "no figure after bad input" || fail "fig.pdf written"
# ---- per-watt metrics (rows with energy) -------------------------------------
rows compare-watts "$D/gpu.csv" watts.csv
expect_status 0 "--metric gbps_per_watt" compare watts.csv --metric gbps_per_watt -w stream -k copy -t float
has '^stream +copy +float +268435456 +12\.0' "stream copy float: 3000 GB/s at 250 W = 12.0 GB/s/W"
expect_status 0 "--metric power" compare watts.csv --metric power -w stream -k copy -t float
has '^stream +copy +float +268435456 +250' "average power shown"
finish
