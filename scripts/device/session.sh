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
#   dslash8    dslash (with stream: of_stream_triad) and cg, fp32 compressed 64^3x16,
#              rhs 1,2,4,8, every kernel variant: reg in one pass and in passes of 4,
#              cache, regcache (k = 2, 4), best (probe); dslash in the layout's site
#              order and in strips of 4 z-planes (zstrip); ~130 s in all
#   energy     stream with NVML windows of 0.1, 1 (the default) and 3 s: how far
#              copy, scale, add and triad (equal traffic) agree on power
#   timer      the timer check's verdict on the GPU (-v: events against the host
#              clock of clbench's own kernel) and quick rows of the evented
#              workloads: none may say timer=host (docs/PORTABILITY.md)
#   fidelity   the kernels changed to be the sources': copy2d's
#              report-order `coalesced` [C1060Report] beside `loads_first`,
#              the transpose lecture's [Udacity12] `per_row` transpose, each beside stream copy; and the latency,
#              camping and bus summaries (labels from what the device reports)
#   halo       one GPU: plain dslash/cg beside the 1-rank distributed ones
#              (scaling=weak: a t exchange with itself through pinned host
#              memory), fp32, compressed links, rhs 1 and 4, at 64^3x16 and
#              64^3x64; the chain before pipelining (exchange=bulk); the MPI
#              step of each exchange= on its own (2 ranks sharing the GPU)
#   mpi        every-rank stream, dslash/cg weak (64^3x32 per rank) and strong
#              scaling on all GPUs, and the exchange= alternatives
#   node       one process drives every GPU (--devices-per-rank all; the node
#              path between them): nvidia-smi topo -m, the plain kernels on one
#              GPU (64^3x32, 64^3x64), weak 64^3x32 per GPU on 1 rank (t with
#              itself: the scaling model's input) and on every GPU, strong
#              64^3x64 on every GPU, stream and bus per device and in all;
#              NODE_CHUNKS="1024 4096": strong dslash rhs 4 at other chunk=;
#              NODE_MPI="none cma": weak on MPI ranks beside it; NODE_STREAM=0: no
#              stream and bus
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
    step transpose-float 150 $CB run stream,transpose -d $DEV -t float --param transpose.kernels=copy,best \
      --param best=${BEST_FLOAT:-64x8v4,64x16v4,64x8v4oR,64x8v4oC,64x8v4oD,64x8v4oS8,64x8v4oS32,64x8v4d2,64x8v4d4,64x8v4d4oC,64x8v4p2,64x8v4p4,64x8v4p6,64x8v4p4oC,64x8v4nt,64x8v4oCnt,64x8v4p4nt} -o "$csv"
    step transpose-double 150 $CB run stream,transpose -d $DEV -t double --param transpose.kernels=copy,best \
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
        --param kernels=reg,cache --param local=$l -o "$csv"; done ;;
  dslash8)
    # the rows carry registers, spills and private
    # memory where the driver reports them (metrics), best's pick and its probe (detail)
    step dslash8 120 $CB run stream,dslash -d $DEV -t float --param rhs=1,2,4,8 \
      --param links=compressed --param dslash.kernels=reg,cache,regcache,best --param pass=8,4 \
      --param zstrip=0,4 -n 10 --warmup 2 -o "$csv"
    step dslash8-cg 100 $CB run cg -d $DEV -t float -s 64x64x64x16 --param rhs=1,2,4,8 \
      --param links=compressed --param kernels=reg,cache,regcache -n 3 --warmup 1 -o "$csv" ;;
  energy)
    step energy-0.1 60 $CB run stream -d $DEV --energy-window 0.1 -o "$csv"
    step energy-1 90 $CB run stream -d $DEV --energy on -o "$csv"
    step energy-3 120 $CB run stream -d $DEV --energy-window 3 -o "$csv"
    step energy-peak 60 $CB run peak -d $DEV -o "$csv" ;;   # (and: no compiler warnings in the log)
  halo)
    # Estimates on an H100 (2.9 TFlop/s dslash rhs 1, ~7 rhs 4; cg 2.6 / 5.5;
    # 1146 flop a site and rhs): the timed parts are short (a 64^3x16
    # application 0.8 ms at rhs 1, 2.4 GFlop), set-up (fields and the float64
    # reference on the host) and cg's solves (112 iterations: 0.2 s at rhs 1,
    # 0.4 s at rhs 4 for 64^3x16, 4x that at 64^3x64; each case 8-9 solves
    # with -n 5) take the time: about 10 + 30 + 10 + 45 + 75 + 3 x 20 = 230 s.
    H=(-d "$DEV" -t float --param links=compressed --param kernels=reg --param rhs=1,4)
    step halo-16 40 $CB run dslash,cg "${H[@]}" -s 64x64x64x16 -n 10 --warmup 2 -o "$csv"
    step halo-16w 60 $CB run dslash,cg "${H[@]}" -s 64x64x64x16 --param scaling=weak \
      -n 10 --warmup 2 -o "$csv"
    step halo-16w-bulk 30 $CB run dslash "${H[@]}" -s 64x64x64x16 --param scaling=weak \
      --param exchange=bulk -n 10 --warmup 2 -o "$csv"
    step halo-64 90 $CB run dslash,cg "${H[@]}" -s 64x64x64x64 -n 5 --warmup 1 -o "$csv"
    step halo-64w 120 $CB run dslash,cg "${H[@]}" -s 64x64x64x64 --param scaling=weak \
      -n 5 --warmup 1 -o "$csv"
    # the message step of each policy measured on its own (mpi_gbps, mpi_notes_us;
    # both ranks on the one GPU: their kernels compete, their messages do not)
    for x in pipe bulk shm; do
      step halo-mpi-$x 40 mpirun --allow-run-as-root --oversubscribe -np 2 \
        -x OMPI_MCA_btl_vader_single_copy_mechanism=${SINGLE_COPY:-none} -x OMP_NUM_THREADS=8 \
        $CB run dslash -d "$DEV" -t float -s 64x64x64x16 --param links=compressed --param kernels=reg \
        --param rhs=1 --param scaling=weak --param grid=1x1x1x2 --param exchange=$x -n 5 \
        --warmup 1 -o "$csv"
    done ;;
  mpi)
    export OMPI_MCA_btl_vader_single_copy_mechanism=${SINGLE_COPY:-none}
    n=$(nvidia-smi -L | grep -c GPU)
    MPI=(mpirun --allow-run-as-root --oversubscribe -x NCCL_NVLS_ENABLE=0)
    if [ "${MPI_STREAM:-1}" = 1 ]; then   # MPI_STREAM=0: the lattice steps only
      step mpi-stream-1 120 "${MPI[@]}" -np 1 $CB run stream -d $DEV -o "$csv"
      step mpi-stream-n 120 "${MPI[@]}" -np "$n" $CB run stream -d $DEV -o "$csv"
    fi
    # weak: 64^3x32 per rank (the default grid splits z: faces of 64^2x32),
    # beside the plain kernels on one part
    step mpi-plain-32 120 $CB run dslash,cg -d $DEV -t float -s 64x64x64x32 \
      --param rhs=1,4 --param links=compressed --param kernels=reg -n 10 --warmup 2 -o "$csv"
    step mpi-weak-1 150 "${MPI[@]}" -np 1 $CB run dslash,cg -d $DEV -t float -s 64x64x64x32 \
      --param rhs=1,4 --param links=compressed --param kernels=reg --param scaling=weak \
      -n 10 --warmup 2 -o "$csv"
    step mpi-weak-n 150 "${MPI[@]}" -np "$n" $CB run dslash,cg -d $DEV -t float -s 64x64x64x32 \
      --param rhs=1,4 --param links=compressed --param kernels=reg --param scaling=weak \
      -n 10 --warmup 2 -o "$csv"
    for x in bulk shm; do   # the other chains, a few rows each
      step mpi-weak-n-$x 120 "${MPI[@]}" -np "$n" $CB run dslash -d $DEV -t float \
        -s 64x64x64x32 --param rhs=1,4 --param links=compressed --param kernels=reg \
        --param scaling=weak --param exchange=$x -n 10 --warmup 2 -o "$csv"
    done
    step mpi-strong-n 150 "${MPI[@]}" -np "$n" $CB run dslash -d $DEV -t float -s 64x64x64x32 \
      --param rhs=1,4 --param links=compressed --param scaling=strong -o "$csv"
    step mpi-strong-1 150 "${MPI[@]}" -np 1 $CB run dslash -d $DEV -t float -s 64x64x64x32 \
      --param rhs=1,4 --param links=compressed --param scaling=strong -o "$csv" ;;
  node)
    nvidia-smi topo -m >"$OUT/$label-topo.txt" 2>&1; cat "$OUT/$label-topo.txt" >>"$log"
    N=(-d "$DEV" -t float --param links=compressed --param kernels=reg --param rhs=1,4)
    step node-plain-32 90 $CB run dslash,cg "${N[@]}" -s 64x64x64x32 -n 10 --warmup 2 -o "$csv"
    step node-weak-1 90 $CB run dslash,cg "${N[@]}" -s 64x64x64x32 --param scaling=weak \
      -n 10 --warmup 2 -o "$csv"
    step node-weak-n 120 $CB run dslash,cg "${N[@]}" -s 64x64x64x32 --param scaling=weak \
      --devices-per-rank all -n 10 --warmup 2 -o "$csv"
    step node-plain-64 90 $CB run dslash,cg "${N[@]}" -s 64x64x64x64 -n 5 --warmup 1 -o "$csv"
    step node-strong-n 120 $CB run dslash,cg "${N[@]}" -s 64x64x64x64 --param scaling=strong \
      --devices-per-rank all -n 5 --warmup 1 -o "$csv"
    for k in ${NODE_CHUNKS:-}; do   # the chain's chunk, strong dslash at rhs 4
      step node-strong-chunk$k 60 $CB run dslash -d "$DEV" -t float --param links=compressed \
        --param kernels=reg --param rhs=4 -s 64x64x64x64 --param scaling=strong \
        --devices-per-rank all --param chunk=$k -n 10 --warmup 2 -o "$csv"
    done
    for c in ${NODE_MPI:-}; do   # 2 ranks x 1 device beside it (single copy none, cma)
      step node-mpi-$c 120 mpirun --allow-run-as-root --oversubscribe -np "$(nvidia-smi -L | grep -c GPU)" \
        -x OMPI_MCA_btl_vader_single_copy_mechanism=$c $CB run dslash,cg "${N[@]}" \
        -s 64x64x64x32 --param scaling=weak -n 10 --warmup 2 -o "$csv"
    done
    [ "${NODE_STREAM:-1}" = 1 ] &&
      step node-stream 90 $CB run stream,bus -d "$DEV" --devices-per-rank all -o "$csv" ;;
  fidelity)
    step fidelity-copy2d 150 $CB run stream,copy2d -d $DEV -t float,double,float3 \
      --param copy2d.kernels=coalesced,rows,loads_first -o "$csv"
    # (transpose's own copy is its baseline: stream takes no 2-D size)
    step fidelity-transpose 150 $CB run transpose -d $DEV -t float,double \
      -s 1024x1024,2048x2048,8192x8192 --param kernels=copy,per_row,naive -o "$csv"
    step fidelity-latency-bus 150 $CB run latency,bus -d $DEV -o "$csv"
    step fidelity-camping 120 $CB run camping -d $DEV -t float -o "$csv" ;;
  *) echo "unknown step $s" | tee -a "$log" ;;
  esac
done
echo "session $label: $(( $(date +%s) - t0 )) s" | tee -a "$log"
