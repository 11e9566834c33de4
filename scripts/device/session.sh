#!/usr/bin/env bash
# One GPU-machine session (through the device tool), from the repository root:
#   source .device-deps/setup.sh && bash scripts/device/session.sh LABEL STEP...
# Builds clbench (Release) in /tmp/b, then runs the named steps, each bounded
# by `timeout`, writing rows to $OUT/LABEL-<step>.csv and a log to
# $OUT/LABEL-log.txt (the tool brings back at most 8 files). Steps:
#   list       clbench list -v, nvidia-smi
#   quick      clbench run all --quick                      (timed)
#   suite      clbench run all: the default suite            (timed)
#   transpose  the transpose variants at 8192^2 (float, double) beside stream
#   sweep      stream, dot and copy2d launch shapes and array sizes (profile tuning)
#   tune       the profile's shapes around their values: stream and dot by array
#              size and work-group size, transpose 8192^2 against 16384^2
#   cg         dslash and cg at 64^3x16, rhs 1 and 4, same invocation
#   energy     stream with NVML windows of 0.1, 1 (the default) and 3 s: how far
#              copy, scale, add and triad (equal traffic) agree on power
#   mpi        every-rank stream, dslash/cg weak and strong scaling on all GPUs
#   timer      the timer check's verdict on the GPU (-v: events against the host
#              clock of clbench's own kernel) and quick rows of the evented
#              workloads: none may say timer=host (docs/PORTABILITY.md)
#   fidelity   the kernels changed to be the sources' (issue 30): copy2d's
#              report-order `coalesced` beside `loads_first`, the lecture's
#              `per_row` transpose, each beside stream copy; and the latency,
#              camping and bus summaries (labels from what the device reports)
set -uo pipefail
label=${1:?label}; shift
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/$label-log.txt
t0=$(date +%s)
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DCLBENCH_TESTS=OFF >/tmp/b.log 2>&1 &&
  cmake --build /tmp/b -j16 >>/tmp/b.log 2>&1 || { tail -40 /tmp/b.log; exit 3; }
echo "build: $(( $(date +%s) - t0 )) s" | tee -a "$log"
CB="/tmp/b/clbench"
DEV=${DEV:-gpu}   # DEV=cpu tries a session on PoCL
# every step is bounded; rows measured before a kill are kept (one flushed row at a time)
step() { local name=$1 limit=$2; shift 2; local s0; s0=$(date +%s)
  timeout -k 10 "$limit" "$@" >>"$log" 2>&1; local rc=$?
  echo "$name: exit $rc in $(( $(date +%s) - s0 )) s" | tee -a "$log"; }
for s in "$@"; do
  csv=$OUT/$label-$s.csv
  case $s in
  list)
    $CB list -v >"$OUT/$label-list.txt" 2>&1
    nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv \
      >>"$OUT/$label-list.txt" 2>&1
    cat "$OUT/$label-list.txt" ;;
  quick) step quick 240 $CB run all --quick -d $DEV -o "$csv" ;;
  timer)
    step timer 240 $CB run stream,launch,peak,roofline,latency,dslash --quick -v -d $DEV -o "$csv"
    grep -a "^timer:" "$log" | tee -a "$OUT/$label-timer.txt"
    echo "rows timed on the host clock: $(grep -c 'timer=host' "$csv")" | tee -a "$OUT/$label-timer.txt" ;;
  suite) step suite 420 $CB run all -d $DEV -o "$csv" ;;
  suite2) step suite2 420 $CB run all -d $DEV -o "$csv" ;;   # again: the kernels' JIT cache warm
  transpose)
    # stream and transpose in one invocation: the rows' of_stream_copy is the target's ratio
    # (transpose at its default sizes, 2048^2 and 8192^2)
    step transpose-float 150 $CB run stream,transpose -d $DEV -t float --param kernels=copy,best \
      --param best=${BEST_FLOAT:-64x8v4,64x16v4,64x8v4oR,64x8v4oC,64x8v4oD,64x8v4oS8,64x8v4oS32,64x8v4d2,64x8v4d4,64x8v4d4oC,64x8v4p2,64x8v4p4,64x8v4p6,64x8v4p4oC,64x8v4nt,64x8v4oCnt,64x8v4p4nt} -o "$csv"
    step transpose-double 150 $CB run stream,transpose -d $DEV -t double --param kernels=copy,best \
      --param best=${BEST_DOUBLE:-64x8v2,32x16v2,64x8v2oR,64x8v2oC,64x8v2oD,64x8v2oS32,32x16v2oC,32x16v2d2,32x16v2d4,32x16v2d4oC,32x16v2p4,32x16v2p8,32x16v2p8oC,64x8v2nt,64x8v2oCnt,32x16v2p8nt} -o "$csv" ;;
  sweep)
    # launch shapes at the default size, then larger arrays with the profile's shape
    step sweep-stream 120 $CB run stream -d $DEV -t float,double --param vec=2,4 --param ilp=1,2 \
      --param local=256,512,1024 -o "$csv"
    step sweep-size 60 $CB run stream -d $DEV -t float -s 2^28,2^29,2^30 -o "$csv"
    step sweep-size-d 60 $CB run stream -d $DEV -t double -s 2^27,2^28,2^29 -o "$csv"
    step sweep-dot 90 $CB run dot -d $DEV -t float,double --param kernels=device,device_sumsq \
      --param groups=0,264,528,1056 -s 2^28,2^29 -o "$csv" ;;
  tune)
    step tune-stream-f 150 $CB run stream -d $DEV -t float -s 2^26,2^28,2^29,2^30 --param vec=4 \
      --param local=128,256,1024 -o "$csv"
    step tune-stream-d 150 $CB run stream -d $DEV -t double -s 2^25,2^27,2^28,2^29 --param vec=2 \
      --param local=128,256,1024 -o "$csv"
    step tune-dot 100 $CB run dot -d $DEV -t float,double --param kernels=device,device_sumsq \
      -s 2^28,2^29 --param groups=132,264,396,528,660 -o "$csv"
    step tune-transpose-f 120 $CB run transpose -d $DEV -t float -s 8192x8192,16384x16384 \
      --param kernels=copy,copy_local,best --param best=64x8v4oC,64x8v4oCnt,64x16v4 -o "$csv"
    step tune-transpose-d 120 $CB run transpose -d $DEV -t double -s 8192x8192,16384x16384 \
      --param kernels=copy,copy_local,best --param best=32x16v2oC,64x8v2oCnt -o "$csv" ;;
  cg)
    step cg 200 $CB run dslash,cg -d $DEV -t float -s 64x64x64x16 --param rhs=1,4 -o "$csv"
    for l in ${CG_LOCALS:-256 512}; do
      step cg-local$l 100 $CB run cg -d $DEV -t float -s 64x64x64x16 --param rhs=1,4 \
        --param kernel=reg,cache --param local=$l -o "$csv"; done ;;
  energy)
    step energy-0.1 60 $CB run stream -d $DEV --energy-window 0.1 -o "$csv"
    step energy-1 90 $CB run stream -d $DEV --energy on -o "$csv"
    step energy-3 120 $CB run stream -d $DEV --energy-window 3 -o "$csv"
    step energy-peak 60 $CB run peak -d $DEV -o "$csv" ;;   # (and: no compiler warnings in the log)
  mpi)
    export OMPI_MCA_btl_vader_single_copy_mechanism=none
    n=$(nvidia-smi -L | grep -c GPU)
    MPI=(mpirun --allow-run-as-root --oversubscribe -x NCCL_NVLS_ENABLE=0)
    step mpi-stream-1 120 "${MPI[@]}" -np 1 $CB run stream -d $DEV -o "$csv"
    step mpi-stream-n 120 "${MPI[@]}" -np "$n" $CB run stream -d $DEV -o "$csv"
    step mpi-weak-1 150 "${MPI[@]}" -np 1 $CB run dslash,cg -d $DEV -t float -s 64x64x64x16 \
      --param rhs=1,4 --param links=compressed --param scaling=weak -o "$csv"
    step mpi-weak-n 150 "${MPI[@]}" -np "$n" $CB run dslash,cg -d $DEV -t float -s 64x64x64x16 \
      --param rhs=1,4 --param links=compressed --param scaling=weak -o "$csv"
    step mpi-strong-n 150 "${MPI[@]}" -np "$n" $CB run dslash -d $DEV -t float -s 64x64x64x32 \
      --param rhs=1,4 --param links=compressed --param scaling=strong -o "$csv"
    step mpi-strong-1 150 "${MPI[@]}" -np 1 $CB run dslash -d $DEV -t float -s 64x64x64x32 \
      --param rhs=1,4 --param links=compressed --param scaling=strong -o "$csv" ;;
  fidelity)
    step fidelity-copy2d 150 $CB run stream,copy2d -d $DEV -t float,double,float3 \
      --param kernels=coalesced,rows,loads_first -o "$csv"
    step fidelity-transpose 150 $CB run stream,transpose -d $DEV -t float,double \
      -s 1024x1024,2048x2048,8192x8192 --param kernels=copy,per_row,naive -o "$csv"
    step fidelity-latency-bus 150 $CB run latency,bus -d $DEV -o "$csv"
    step fidelity-camping 120 $CB run camping -d $DEV -t float -o "$csv" ;;
  *) echo "unknown step $s" | tee -a "$log" ;;
  esac
done
echo "session $label: $(( $(date +%s) - t0 )) s" | tee -a "$log"
