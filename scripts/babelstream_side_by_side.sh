#!/usr/bin/env bash
# clbench stream beside BabelStream [Deakin16] on one OpenCL device: builds
# BabelStream's OpenCL and OpenMP models from a source tree (fetched by hand:
# github.com/UoB-HPC/BabelStream; its code is never part of clbench), then runs
# alternating rounds -- BabelStream OpenCL, BabelStream OpenMP, clbench stream,
# and again -- so that whatever else the machine does hits all of them alike.
# Every tool's best repetition (BabelStream's max GB/s over its timed runs,
# clbench's gbps_best) becomes one CSV row; a summary of the best of the rounds
# and the ratio clbench / the better BabelStream follows on stdout.
#
#   scripts/babelstream_side_by_side.sh [options] BABELSTREAM_SRC
#
#   -d, --device SPEC   clbench's device (default cpu); BabelStream's OpenCL model is
#                       given the device of the same name
#   -c, --clbench BIN   the clbench binary (default build/clbench)
#   -b, --build-dir D   where BabelStream is built: D/ocl, D/omp (default
#                       ${TMPDIR:-/tmp}/babelstream-build); kept and reused
#   -j, --jobs N        build jobs (default: the cores)
#       --threads N     threads of every implementation: OMP_NUM_THREADS, PoCL's
#                       POCL_CPU_MAX_CU_COUNT (and the older POCL_MAX_PTHREAD_COUNT),
#                       llvmpipe's LP_NUM_THREADS (default: each one's own, all cores)
#   -r, --rounds N      alternating rounds (default 3)
#   -s, --size N        elements per array (default 33554432 = 2^25)
#   -t, --types LIST    float,double (default both)
#   -n, --reps N        timed repetitions of every kernel in every tool (default 100,
#                       BabelStream's own): BabelStream gets -n N+1 (it drops its
#                       first run), clbench -n N --min-reps N --tolerance 0; 0 = each
#                       tool's own default (clbench stops when its median is stable)
#       --models LIST   BabelStream models: ocl,omp (default both)
#       --max-load L    before each tool's run wait until the 1-minute load average is
#                       below L (default: no wait); the load is written in every row
#       --wait S        the longest such wait in seconds (default 900); then it runs
#                       anyway and the row says so
#       --param K=V     a clbench stream parameter, repeatable (every variant)
#       --variant L=ARGS  a clbench variant, repeatable: each round runs every variant
#                       after BabelStream, its rows labelled L (ARGS: clbench run
#                       options, split at spaces, e.g. 'nt=--param nt=1'); default one,
#                       'default', with no further options
#       --bs-variant L=ARGS  the same for BabelStream (e.g. 'copy-only=--only Copy')
#   -o, --output FILE   the rows (default results/local/babelstream-side-by-side.csv;
#                       replaced); the tools' own output goes to FILE.log
#
# Environment: RUSTICL_ENABLE=llvmpipe for Rusticl (clbench -d llvmpipe). The
# OpenCL headers BabelStream needs (CL/opencl.hpp) are looked for in
# $OPENCL_HEADERS, /opt/deps/usr/include, /usr/include, /usr/local/include.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
die() { echo "babelstream_side_by_side: $*" >&2; exit 2; }

dev=cpu cb=$src/build/clbench bdir=${TMPDIR:-/tmp}/babelstream-build
jobs=$(nproc 2>/dev/null || echo 2) threads= rounds=3 size=33554432 types=float,double
reps=100 models=ocl,omp max_load= wait_max=900 out=$src/results/local/babelstream-side-by-side.csv
params=() variants=() bs_variants=()
while [ $# -gt 0 ]; do
  case $1 in
    -d|--device) dev=$2; shift ;;
    -c|--clbench) cb=$2; shift ;;
    -b|--build-dir) bdir=$2; shift ;;
    -j|--jobs) jobs=$2; shift ;;
    --threads) threads=$2; shift ;;
    -r|--rounds) rounds=$2; shift ;;
    -s|--size) size=$2; shift ;;
    -t|--types) types=$2; shift ;;
    -n|--reps) reps=$2; shift ;;
    --models) models=$2; shift ;;
    --max-load) max_load=$2; shift ;;
    --wait) wait_max=$2; shift ;;
    --param) params+=(--param "$2"); shift ;;
    --variant) [[ $2 == ?*=* ]] || die "--variant LABEL=ARGS, not '$2'"; variants+=("$2"); shift ;;
    --bs-variant) [[ $2 == ?*=* ]] || die "--bs-variant LABEL=ARGS, not '$2'"; bs_variants+=("$2"); shift ;;
    -o|--output) out=$2; shift ;;
    -h|--help) usage 0 ;;
    -*) echo "babelstream_side_by_side: unknown option '$1'" >&2; usage 2 >&2 ;;
    *) [ -z "${bs_src:-}" ] || die "one BabelStream source tree, not '$1' too"; bs_src=$1 ;;
  esac
  shift
done
[ ${#variants[@]} -gt 0 ] || variants=(default=)
[ ${#bs_variants[@]} -gt 0 ] || bs_variants=(default=)
[ -n "${bs_src:-}" ] || { echo "babelstream_side_by_side: which BabelStream source tree?" >&2; usage 2 >&2; }
[ -f "$bs_src/src/main.cpp" ] && [ -d "$bs_src/src/ocl" ] || die "'$bs_src' is not a BabelStream source tree"
[ -x "$cb" ] || die "no clbench at '$cb' (build it, or give -c BIN)"
for v in "$rounds" "$size" "$reps" "$jobs" ${threads:+"$threads"}; do
  [[ $v =~ ^[0-9]+$ ]] || die "'$v' is not a count"
done
[ -z "$max_load" ] || [[ $max_load =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--max-load '$max_load' is not a number"
rows_py="$src/scripts/babelstream_rows.py"
mkdir -p "$(dirname "$out")" "$bdir" || die "cannot create $(dirname "$out") or $bdir"
log=$out.log
: >"$log"
if [ -n "$threads" ]; then
  export OMP_NUM_THREADS=$threads POCL_CPU_MAX_CU_COUNT=$threads POCL_MAX_PTHREAD_COUNT=$threads
  export LP_NUM_THREADS=$threads
fi

# ---- building BabelStream ---------------------------------------------------
headers=
for d in ${OPENCL_HEADERS:-} /opt/deps/usr/include /usr/include /usr/local/include; do
  [ -f "$d/CL/opencl.hpp" ] && { headers=$d; break; }
done
libocl=$(ldconfig -p 2>/dev/null | awk '/libOpenCL\.so(\.1)? / {print $NF; exit}')
[ -n "$libocl" ] || libocl=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so* /usr/lib64/libOpenCL.so* \
  /usr/local/lib/libOpenCL.so* 2>/dev/null | head -1)
build_model() { # model -> the binary's path on stdout, or nothing
  local m=$1 extra=()
  if [ "$m" = ocl ]; then
    [ -n "$headers" ] || { echo "no CL/opencl.hpp found (set OPENCL_HEADERS)" >>"$log"; return 1; }
    [ -n "$libocl" ] || { echo "no libOpenCL found" >>"$log"; return 1; }
    # its CMake would download the Khronos headers: the system's instead
    extra=(-DFETCHCONTENT_SOURCE_DIR_OPENCL_HEADER="$headers" -DOpenCL_LIBRARY="$libocl")
  fi
  { cmake -S "$bs_src" -B "$bdir/$m" -DMODEL="$m" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" &&
      cmake --build "$bdir/$m" -j "$jobs"; } >>"$log" 2>&1 || return 1
  [ -x "$bdir/$m/$m-stream" ] && echo "$bdir/$m/$m-stream"
}
declare -A bin
for m in ${models//,/ }; do
  case $m in ocl|omp) ;; *) die "unknown model '$m' (ocl, omp)" ;; esac
  echo "building BabelStream $m in $bdir/$m" >&2
  bin[$m]=$(build_model "$m") || { echo "BabelStream $m: the build failed (see $log)" >&2; bin[$m]=; }
done

# ---- the device -----------------------------------------------------------------
# clbench resolves SPEC; one quick row gives the device's full name, which
# picks BabelStream's OpenCL device (its --list: a flat index over platforms).
probe=$bdir/probe.csv
rm -f "$probe"
"$cb" run stream -d "$dev" --quick -t float -n 1 --warmup 0 -q --param vec=4 -o "$probe" \
  >>"$log" 2>&1 || die "clbench could not run stream on '$dev' (see $log)"
devname=$(python3 "$rows_py" device "$probe") || die "no device name in $probe"
ocl_index=
if [ -n "${bin[ocl]:-}" ]; then
  ocl_index=$("${bin[ocl]}" --list 2>>"$log" | python3 "$rows_py" index "$devname") ||
    echo "BabelStream OpenCL does not list '$devname'" >&2
fi
echo "device: $devname (BabelStream OpenCL index ${ocl_index:-none}); $(nproc) cores," \
  "threads ${threads:-default}; $size elements, $rounds rounds, reps ${reps}" | tee -a "$log" >&2

# ---- the rounds ------------------------------------------------------------------
load1() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo nan; }
# Waits (up to --wait s) for a quiet machine; prints the load it starts at,
# marked with '!' where it gave up waiting.
quiet() {
  local t0=$SECONDS l
  l=$(load1)
  while [ -n "$max_load" ] && awk -v l="$l" -v m="$max_load" 'BEGIN {exit !(l >= m)}'; do
    if [ $((SECONDS - t0)) -ge "$wait_max" ]; then echo "$l!"; return; fi
    sleep 15
    l=$(load1)
  done
  echo "$l"
}
bs_reps=() cb_reps=()
if [ "$reps" -gt 0 ]; then
  bs_reps=(-n $((reps + 1)))
  cb_reps=(-n "$reps" --min-reps "$reps" --tolerance 0 --max-time 1000)
fi
python3 "$rows_py" header "$out"
seq=0
run_babelstream() { # round model dtype variant
  local r=$1 m=$2 t=$3 v=${4%%=*} l tmp=$bdir/bs.out rc args=() extra
  read -r -a extra <<<"${4#*=}"
  [ -n "${bin[$m]:-}" ] || { python3 "$rows_py" failed "$out" "$r" $((++seq)) "$m" "$v" "$devname" \
    "$t" "$size" "$reps" nan "not built"; return; }
  if [ "$m" = ocl ]; then
    [ -n "$ocl_index" ] || { python3 "$rows_py" failed "$out" "$r" $((++seq)) ocl "$v" "$devname" \
      "$t" "$size" "$reps" nan "device not listed"; return; }
    args=(--device "$ocl_index")
  fi
  [ "$t" = float ] && args+=(--float)
  l=$(quiet)
  echo "round $r: BabelStream $m $v $t (load $l)" >&2
  echo "== round $r BabelStream $m $v $t, load $l: ${bin[$m]} ${args[*]} ${extra[*]}" >>"$log"
  timeout -k 10 900 "${bin[$m]}" "${args[@]}" -s "$size" "${bs_reps[@]}" "${extra[@]}" --csv \
    >"$tmp" 2>&1
  rc=$?
  cat "$tmp" >>"$log"
  python3 "$rows_py" babelstream "$out" "$r" $((++seq)) "$m" "$v" "$devname" "$t" "$l" "$rc" \
    "$tmp" || echo "round $r: BabelStream $m $v $t failed (exit $rc, see $log)" >&2
}
run_clbench() { # round variant
  local r=$1 v=${2%%=*} l tmp=$bdir/cb.csv extra
  read -r -a extra <<<"${2#*=}"
  l=$(quiet)
  echo "round $r: clbench stream $v $types (load $l)" >&2
  echo "== round $r clbench $v, load $l: ${params[*]} ${extra[*]}" >>"$log"
  rm -f "$tmp"
  timeout -k 10 1800 "$cb" run stream -d "$dev" -s "$size" -t "$types" "${cb_reps[@]}" \
    "${params[@]}" "${extra[@]}" -o "$tmp" >>"$log" 2>&1
  echo "clbench exit $?" >>"$log"
  python3 "$rows_py" clbench "$out" "$r" $((++seq)) "$v" "$l" "$tmp" ||
    echo "round $r: no clbench rows (see $log)" >&2
}
for r in $(seq 1 "$rounds"); do
  for m in ${models//,/ }; do
    for bv in "${bs_variants[@]}"; do
      for t in ${types//,/ }; do run_babelstream "$r" "$m" "$t" "$bv"; done
    done
  done
  for cv in "${variants[@]}"; do run_clbench "$r" "$cv"; done
done
python3 "$rows_py" summary "$out"
