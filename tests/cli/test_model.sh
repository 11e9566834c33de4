#!/usr/bin/env bash
# clbench model: the source studies' figures ([C1060Report], [Wagner15]) from
# the profiles, and bad input refused.
source "$(dirname "$0")/lib.sh"
set -e
DATA="$CLBENCH_SRC/tests/data"

# expect_out PATTERN DESCRIPTION: the last run's stdout matches PATTERN (grep -E)
expect_out() {
  if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: /$1/ not in: $OUT_TXT"; fi
}

expect_status 0 "blockeq closed form on the C1060" model blockeq --profile tesla_c1060
expect_out '^float +54\.3553 GB/s' "float 54.3553 GB/s"
expect_out '^double +54\.5904 GB/s' "double 54.5904 GB/s"
expect_out '^double/float ratio 1\.00432' "ratio"
expect_out 'index_cycles +36 +\(profile \[model\]\)' "parameter origin shown"
expect_status 0 "blockeq, double only" model blockeq -p tesla_c1060 -t double
expect_out '^double +54\.5904 GB/s' "double alone"
if grep -q '^float' "$TMP/stdout"; then fail "-t double printed float"; else pass "-t double only"; fi
expect_error 2 "unknown type 'half'" "blockeq bad type" model blockeq -p tesla_c1060 -t half

# every parameter overridable: 20 index cycles shrink X
expect_status 0 "blockeq --param" model blockeq -p tesla_c1060 --param index_cycles=20
expect_out 'X = .* = 240 cycles' "X follows --param"
expect_status 0 "blockeq without a profile, all by --param" model blockeq -s 512x512 \
  --param index_cycles=36 --param transfer_cycles=1.625 --param bus_bytes=64 \
  --param sms=30 --param clock_mhz=1300
expect_out '^float +54\.3553 GB/s' "same figure from options alone"

expect_status 0 "blockeq --sim one block" model blockeq -p tesla_c1060 --sim -t float
expect_out '^float +1 +199569 +3\.4152' "simulation: one block of floats 3.4152 GB/s"
expect_out '3\.22 GB/s modelled.*3\.1 GB/s measured' "report figures set beside"
expect_status 0 "blockeq --sim P sweep" model blockeq -p tesla_c1060 --sim -t float --param blocks=16,30,32
expect_out '^float +30 .* 5$' "P=30: 5 tiles on the busiest SM"

expect_status 0 "dslash, no profile" model dslash
expect_out '^1 +1432 +0\.80 +- +-$' "rhs 1: 0.80"
expect_out '^5 +3064 +1\.87 ' "rhs 5: 1.87"
expect_out '^15/16 +1072 +1\.07 ' "hit 15/16: 1.07"
expect_out '^9/16 +1216 +0\.94 ' "hit 9/16: 0.94"
expect_out 'no bandwidth, so no GFlop/s: give -p PROFILE' "no profile: says why its GFlop/s are -"
expect_status 0 "dslash on the K40" model dslash -p tesla_k40 --param rhs=1,4
expect_out '^1 +1432 +0\.80 +230\.5 +152\.9$' "K40 estimates (peak bw, triad bw)"
expect_out 'triad source: BabelStream' "triad source named"
expect_out '^4 +6176 +1\.53 +441\.0 +292\.4 +0\.89$' "cg solver per iteration at 4 rhs (K40)"
expect_status 0 "dslash with an explicit triad" model dslash -p xeon_phi_5110p --param triad_bw=150 --param rhs=1 --param hit=0
expect_out '^1 +1432 +0\.80 +256\.1 +120\.0$' "5110P estimates"

expect_status 0 "roofline" model roofline -p h100_sxm -w stream -k triad -t double -s 2^28
expect_out '^bound +memory' "triad memory bound"
expect_out '^GB/s +3352$' "at peak bandwidth"
expect_status 0 "roofline matmul" model roofline -p tesla_k20 -w matmul -s 4096 -t float
expect_out '^bound +compute' "matmul compute bound"
expect_out '^model +3520 GFlop/s' "at the K20's fp32 peak"
expect_status 0 "roofline of a double type" model roofline -p tesla_k20 -w stream -k triad -t double -s 2^20
expect_out '^  peak_gflops +1170 ' "a double row is held to the K20's fp64 peak"
expect_error 2 "dslash float 64x64x64x16: its count needs a kernel: give -k KERNEL" \
  "roofline of a workload that counts per kernel, without -k: says -k" \
  model roofline -p h100_sxm -w dslash -t float -s 64x64x64x16 --param rhs=4
expect_error 2 "matmul types are float" "roofline refuses a type the workload does not take" model roofline -p tesla_k20 -w matmul -s 4096 -t double

expect_status 0 "model --help" model --help

expect_error 2 "missing MODEL" "no model" model
expect_error 2 "unknown model 'roof'" "unknown model" model roof
expect_error 2 "unknown option '--bogus'" "unknown option" model blockeq --bogus
expect_error 2 "needs a value" "option without value" model blockeq --profile
expect_error 2 "halfwarps = 1e\\+30 is not a whole number" "sim count too large for an int" model blockeq --sim -p tesla_c1060 --param halfwarps=1e30
expect_error 2 "sms = 0.5 is not a whole number" "sim count not whole" model blockeq --sim -p tesla_c1060 --param sms=0.5
expect_error 2 "unknown profile 'tesla_c1070'" "unknown profile" model blockeq -p tesla_c1070
expect_error 2 "unknown parameter 'index'" "unknown --param key" model blockeq -p tesla_c1060 --param index=3
expect_error 2 "not KEY=VALUE" "--param without =" model blockeq -p tesla_c1060 --param index_cycles
expect_error 2 "index_cycles = 'abc' is not a non-negative number" "non-numeric --param" model blockeq -p tesla_c1060 --param index_cycles=abc
expect_error 2 "parameter 'index_cycles' is not set" "blockeq without a profile" model blockeq -s 512x512
expect_error 2 "bad size '512'" "bad blockeq size" model blockeq -p tesla_c1060 -s 512
expect_error 2 "blocks_per_sm" "too many blocks" model blockeq -p tesla_c1060 --sim --param blocks=61
expect_error 2 "unknown type 'half'" "bad type" model dslash -t half
expect_error 2 "hit rate '17/16'" "hit rate above 1" model dslash --param hit=17/16
expect_error 2 "rhs" "rhs out of range" model dslash --param rhs=0
expect_error 2 "--workload NAME and --size" "roofline needs a workload" model roofline -p h100_sxm
expect_error 2 "runs on the host or over the host link" "roofline of bus" model roofline -p h100_sxm -w bus -k pinned_h2d -s 1M
expect_error 2 "unknown stream kernel 'triadd'" "bad stream kernel" model roofline -p h100_sxm -w stream -k triadd -s 1M
expect_error 2 "peak_bw" "roofline on a profile without a peak" model roofline -p pocl_cpu -w stream -k copy -s 1M
expect_error 2 "--sim applies to blockeq only" "--sim elsewhere" model dslash --sim
expect_error 2 "typo.ini:[0-9]+: \[model\] unknown key 'blockeq.index_cycle'" "profile [model] typo" \
  model blockeq --platforms-dir "$DATA/profiles/model" -p "Model Typo"
expect_error 2 "nonnum.ini" "profile non-numeric model figure" \
  model blockeq --platforms-dir "$DATA/profiles/model" -p "Model Nonnumeric" --param size=64x64
expect_error 2 "stream_triad_gbs" "profile non-numeric triad" \
  model dslash --platforms-dir "$DATA/profiles/model" -p "Model Nonnumeric"
finish
