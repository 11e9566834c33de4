#!/usr/bin/env bash
# --ceilings: models and runs on measured figures of the device they were
# measured on (tests/data/ceilings/fixture.csv), each parameter naming its
# source; the device chosen by --device, the profile or the only one in the
# file; absence and ambiguity refused with one line.
source "$(dirname "$0")/lib.sh"
set -e
FX="$CLBENCH_SRC/tests/data/ceilings/fixture.csv"

expect_status 0 "roofline on the H100's ceilings (--device)" model roofline -w stream -k triad -t double -s 1M --ceilings "$FX" --device h100
echo "$OUT_TXT" | grep -q "ceilings measured on 'NVIDIA H100 80GB HBM3'" && pass "device named" || fail "$OUT_TXT"
echo "$OUT_TXT" | grep -Eq "peak_bw +3076.1 +\(measured: stream triad 3076.1 GB/s \(double vec=2,ilp=1,local=1024\), run 6b02-h-1, file .*fixture.csv\)" \
  && pass "peak_bw measured, with run and file" || fail "$OUT_TXT"
echo "$OUT_TXT" | grep -Eq "peak_gflops +32500 +\(measured: peak fma 32500 GFlop/s \(double" && pass "fp64 peak for -t double" || fail "$OUT_TXT"
expect_status 0 "the profile picks the device" model roofline -w stream -k copy -t float -s 1M --ceilings "$FX" -p h100_sxm
echo "$OUT_TXT" | grep -Eq "peak_gflops +65000 +\(measured: roofline compute" && pass "fp32 from roofline's compute ceiling" || fail "$OUT_TXT"
expect_status 0 "dslash on the K40's triad" model dslash -p tesla_k40 --ceilings "$FX" --param rhs=1 --param hit=0
echo "$OUT_TXT" | grep -Eq "triad_bw +191 +\(measured: stream triad" && pass "triad_bw measured" || fail "$OUT_TXT"
# the C1060's latency stays the 400 cycles of [C1060Report]: the file has no C1060 rows
expect_status 0 "blockeq --sim without ceilings" model blockeq --sim -p tesla_c1060 --param blocks=1
echo "$OUT_TXT" | grep -Eq "latency_cycles +400 +\(profile \[model\]\)" && pass "400 cycles from the profile" || fail "$OUT_TXT"
expect_error 2 "no rows of profile tesla_c1060's device" "ceilings of another device refused" \
  model blockeq --sim -p tesla_c1060 --ceilings "$FX"
expect_status 0 "--device forces them" model blockeq --sim -p tesla_c1060 --ceilings "$FX" --device H100 --param blocks=1
echo "$OUT_TXT" | grep -Eq "latency_cycles +1207.8 +\(measured: latency memory plateau 610 ns = 1207.8 cycles at 1980 MHz \(128 MiB..512 MiB, stride 128 B\)" \
  && pass "latency cycles from the memory plateau" || fail "$OUT_TXT"
echo "$OUT_TXT" | grep -Eq "clock_mhz +1980 +\(measured: latency" && pass "with its clock" || fail "$OUT_TXT"
expect_error 2 "several devices" "two devices and no choice" model roofline -w stream -k copy -s 1M --ceilings "$FX"
expect_error 2 "--device matches several devices" "ambiguous --device" model roofline -w stream -k copy -s 1M --ceilings "$FX" --device a
expect_error 2 "no device matches --device 'mi300'" "unknown device" model roofline -w stream -k copy -s 1M --ceilings "$FX" --device mi300
expect_error 2 "--device picks the device of --ceilings" "--device alone" model roofline -w stream -k copy -s 1M --device h100
expect_error 2 "ceilings" "missing file" model roofline -w stream -k copy -s 1M --ceilings nothere.csv
# a file without a usable bandwidth (the H100's latency and cache-resident
# stream rows only): the answer names what is missing and how to measure it
rows ceilings-no-bandwidth "$FX" nobw.csv
expect_error 2 "model roofline: --ceilings nobw.csv: no row of 'NVIDIA H100 80GB HBM3' there measures its memory bandwidth \(stream: copy or triad rows that are not cache-resident; roofline: .*\); run .clbench run stream. at default sizes on it \(or give --param peak_bw=VALUE\)" \
  "no bandwidth in the file: what is missing" model roofline -w stream -k copy -t float -s 1M --ceilings nobw.csv --param peak_gflops=1000
grep -v ",latency," "$FX" > nolat.csv
expect_error 2 "model blockeq: --ceilings nolat.csv: no row of 'NVIDIA H100 80GB HBM3' there measures its memory latency \(latency: a sweep that reaches memory" \
  "blockeq: the latency the file lacks" model blockeq --sim -p h100_sxm --ceilings nolat.csv --param blocks=1 -s 512x512 --param index_cycles=36

# run: the rows of this device; PoCL's name put on the fixture's H100 rows
expect_status 0 "a quick row for the device name" run launch --quick -d $POCL -n 1 --param kernels=rate --param batch=1 -o dev.csv
dev=$(csv_col dev.csv device)
rows ceilings-as-device "$FX" "$dev" mine.csv
expect_status 0 "run with measured ceilings" run stream --quick -d $POCL -t float -n 2 --ceilings mine.csv -o run.csv
echo "$ERR_TXT" | grep -q "ceiling memory bandwidth: measured: stream triad 3076.1 GB/s" && pass "sources on stderr" || fail "$ERR_TXT"
echo "$ERR_TXT" | grep -q "ceiling memory latency: measured: latency memory plateau 610 ns" && pass "latency shown" || fail "$ERR_TXT"
rows ceilings-rows run.csv && pass "rows: profile, model and %peak on the measured bandwidth" || fail "rows"
expect_error 2 "no measured rows of device" "a file without this device refused" run stream --quick -d $POCL -t float -n 1 --ceilings "$FX" -o no.csv
finish
