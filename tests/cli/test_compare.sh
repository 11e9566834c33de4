#!/usr/bin/env bash
# clbench compare on the committed fixtures of tests/data/compare: table
# content, repeated runs, --relative-to arithmetic, filters, Markdown, plots
# (PNG and SVG), gnuplot missing or failing, and every kind of bad input.
source "$(dirname "$0")/lib.sh"
set -e
D="$CLBENCH_SRC/tests/data/compare"
ALL=("$D/gpu.csv" "$D/cpu.csv" "$D/reference.csv")
mkdir -p "$TMP/tmp"
export TMPDIR="$TMP/tmp"   # the plot's scratch directory must be gone afterwards

# has LINE-PATTERN: stdout has a line matching the extended regex
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $OUT_TXT"; fi; }
hasnt() { if grep -Eq -- "$1" "$TMP/stdout"; then fail "$2: unexpected /$1/"; else pass "$2"; fi; }
count_lines() { grep -Ec -- "$1" "$TMP/stdout" || true; }

# ---- the table ------------------------------------------------------------
expect_status 0 "compare three files" compare "${ALL[@]}"
# columns: measured devices, the same device name on two hosts, published sources
has '^\s+\[1\] NVIDIA H100 80GB HBM3 .*peak 3352 GB/s' "H100 column with its peak derived from pct_peak_bw"
has '^\s+\[5\] Tesla K20X \(Matrix transpose whitepaper\) +\(published; peak 250 GB/s\)' "K20X peak from the tesla_k20x profile (longest name match)"
has '\[2\] pthread-haswell-AMD EPYC 7B13 64-Core Processor @vm' "same device on two hosts: @vm"
has '\[3\] pthread-haswell-AMD EPYC 7B13 64-Core Processor @ws' "same device on two hosts: @ws"
has '\[6\] Tesla K20c, "Kepler" GK110 \(BabelStream 1.0; ECC on\)' "reference column: comma and quotes in the name, source, driver"
has '\[7\] Tesla K20c, "Kepler" GK110 \(BabelStream 1.0; ECC off\)' "ECC off is a column of its own"
# repeated runs: best 3000 of 3000 and 2940, spread (3000-2940)/2/3000 = 1.0%
has '^stream +copy +float +268435456 +3000 ±1\.0% +14\.00 +35\.00 +- +- +- +-$' "stream copy float: best and spread, both CPUs"
has '^stream +copy +double +268435456 +3040 ±1\.0% +13\.50 +33\.75 +- +- +150\.4 +169\.2$' "stream copy double with the BabelStream figures"
has '^transpose +naive +double +8192x8192 +failed +skipped( +-)+$' "failed and skipped configurations shown as such"
has '^transpose +copy +float +2048x2048( +-)+ +96\.90 +147\.6( +-)+$' "published figures at their own size"
# the swept parameter (rhs) makes lines of its own; the vector width does not
n=$(count_lines '^dslash +dslash +float +32x32x32x16 +rhs=[1-4] ')
[ "$n" -eq 4 ] && pass "rhs sweep: four lines" || fail "rhs sweep: $n lines"
hasnt 'vec=' "tuning parameters that are not swept stay out of the table"
n=$(count_lines '^(stream|transpose|dslash) ')
[ "$n" -eq 16 ] && pass "16 table lines" || fail "expected 16 table lines, got $n"

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
has '^transpose +naive +float +any +277\.27 +1\.41 +3\.52 +1\.00 +41\.82$' "naive relative to GTX 280"
has '^transpose +diagonal +float +any +40\.14 +0\.141! +0\.353 +1\.00 +1\.54$' "diagonal relative to GTX 280, '!' for a failed run beside a passing one"
has "^'!': other runs of that configuration failed" "the '!' is explained under the table"
has '^transpose +copy +float +any +- +- +- +1\.00 +1\.52$' "copy relative to GTX 280, no figure where the others lack one"
has 'relative to GeForce GTX 280 \(Matrix transpose whitepaper\)' "title names the reference column"
expect_status 0 "--relative-to h100 (case-insensitive)" compare "${ALL[@]}" -w stream -k triad -t double -r h100
has '^stream +triad +double +268435456 +1\.00 ±1\.0% +0\.0044 +0\.011 +0\.0494 +0\.0563$' "triad double relative to the H100"
expect_error 2 "matches several columns" "ambiguous --relative-to" compare "${ALL[@]}" -r tesla
expect_error 2 "matches no column" "unknown --relative-to" compare "${ALL[@]}" -r 'GTX 480'

# ---- filters ------------------------------------------------------------------
expect_status 0 "filters" compare "${ALL[@]}" -w transpose -k naive,diagonal -t float -s 8192x8192
n=$(count_lines '^transpose ')
[ "$n" -eq 2 ] && pass "two lines after the filters" || fail "filters: $n lines"
hasnt 'BabelStream' "columns without rows in the selection are gone"
expect_status 0 "--dtype double" compare "${ALL[@]}" --dtype double -w stream
n=$(count_lines '^stream .* float ')
[ "$n" -eq 0 ] && pass "no float lines" || fail "float lines: $n"

# ---- sweeps and sizes -----------------------------------------------------------
expect_status 0 "--sweep none" compare "$D/gpu.csv" -w dslash -m gflops --sweep none
n=$(count_lines '^dslash ')
has '^dslash +dslash +float +32x32x32x16 +5600 ±27\.6%$' "--sweep none: best over rhs=1..4, spread (5600-2510)/2/5600"
[ "$n" -eq 1 ] && pass "--sweep none: one line" || fail "--sweep none: $n lines"
expect_status 0 "--sweep vec" compare "$D/gpu.csv" -w stream -k copy --sweep vec
has '^stream +copy +double +268435456 +vec=2 +3040 ±1\.0%$' "--sweep vec names the key"
expect_status 0 "--any-size" compare "${ALL[@]}" -w transpose -k naive -t float --any-size
has '^transpose +naive +float +any +610\.0 +3\.10 +7\.75 +2\.20 +92\.00$' "--any-size: one line whatever the size"

# ---- Markdown -------------------------------------------------------------------
expect_status 0 "--markdown" compare "${ALL[@]}" --markdown -w transpose --any-size
has '^\| workload \| kernel \| dtype \| size \| NVIDIA H100 80GB HBM3 \| .* \| Tesla K20X \(Matrix transpose whitepaper\) \|$' "markdown header with full names"
has '^\|---\|---\|---\|---\|(---:\|)+$' "markdown separator, figures right-aligned"
has '^\| transpose \| naive \| float \| any \| 610\.0 \| 3\.10 \| 7\.75 \| 2\.20 \| 92\.00 \|$' "markdown row"

# ---- plots ----------------------------------------------------------------------
GP=$(command -v gnuplot || true)
if [ -n "$GP" ]; then
  expect_status 0 "--plot svg, one workload" compare "${ALL[@]}" -w transpose --plot fig.svg
  [ -s fig.svg ] && grep -q '<svg' fig.svg && pass "fig.svg is an SVG" || fail "fig.svg missing or not SVG"
  grep -q 'peak 3352 GB/s' fig.svg && pass "peak line in the legend" || fail "no peak line in fig.svg"
  grep -q 'Tesla K20X (Matrix transpose whitepaper)' fig.svg && pass "legend names the reference" || fail "legend"
  mkdir -p out
  expect_status 0 "--plot png, three workloads" compare "${ALL[@]}" --plot out/all.png
  for w in stream transpose dslash; do
    f="out/all-$w.png"
    if [ -s "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = "PNG" ]; then pass "$f is a PNG"; else fail "$f missing or not PNG"; fi
  done
  [ ! -e out/all.png ] && pass "several workloads: OUT-<workload>.png only" || fail "out/all.png written"
  expect_status 0 "--plot svg, a sweep" compare "$D/gpu.csv" -w dslash -m gflops --plot sweep.svg
  grep -q '>rhs<' sweep.svg && pass "sweep x axis is rhs" || fail "sweep axis label"
  ls -A "$TMPDIR" | grep -q . && fail "scratch left in TMPDIR: $(ls -A "$TMPDIR")" || pass "temporary directory removed"
else
  echo "skip: gnuplot is not installed here, plot success not tested"
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
# gnuplot failing after writing half a file: nothing is left behind
cat >fakegp <<'EOF'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1")
printf 'partial' >"$out"
echo "\"$1\" line 9: some gnuplot error" >&2
exit 1
EOF
chmod +x fakegp
mkdir -p fail
CLBENCH_GNUPLOT=$TMP/fakegp expect_error 3 "gnuplot failed to draw .*some gnuplot error" "gnuplot fails" compare "${ALL[@]}" --plot fail/x.svg
[ -z "$(ls -A fail)" ] && pass "no partial figure after a gnuplot failure" || fail "left in fail/: $(ls -A fail)"

# ---- bad input ---------------------------------------------------------------------
expect_error 2 "cannot read .*missing\.csv" "missing file" compare "$D/gpu.csv" "$D/missing.csv"
expect_error 2 "is a directory, not a results file" "a directory" compare "$D"
expect_error 2 "notcsv\.csv: not a clbench results file" "not clbench CSV" compare "$D/notcsv.csv"
expect_error 2 "empty\.csv: empty file" "empty file" compare "$D/empty.csv"
expect_error 2 "otherversion\.csv: not a clbench .* results file \(column 25 is 'gbps_median'" "header of another version" compare "$D/otherversion.csv"
expect_error 2 "fewcols\.csv: not a clbench results file \(header has 29 columns" "header with fewer columns" compare "$D/fewcols.csv"
expect_error 2 "nonnumeric\.csv:2: column gbps is not a number: 'fast'" "non-numeric figure" compare "$D/nonnumeric.csv"
expect_error 2 "no result rows match workload=nosuch" "empty selection" compare "${ALL[@]}" -w nosuch
expect_error 2 "no selected row has a gflops figure" "metric without figures" compare "$D/reference.csv" -m gflops
expect_error 2 "unknown metric 'gbs'" "bad metric" compare "$D/gpu.csv" -m gbs
expect_error 2 "must end in \.svg or \.png" "bad plot name" compare "$D/gpu.csv" --plot fig.pdf
expect_error 2 "cannot write to directory '/nonexistent'" "plot directory missing" compare "$D/gpu.csv" --plot /nonexistent/fig.svg
expect_error 2 "no results file given" "no file" compare
expect_error 2 "unknown option '--bogus'" "unknown option" compare --bogus "$D/gpu.csv"
[ ! -e fig.pdf ] && pass "no figure after bad input" || fail "fig.pdf written"
finish
