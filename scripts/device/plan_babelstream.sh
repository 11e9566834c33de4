# BabelStream [Deakin16] beside clbench stream on the GPU machine's host CPU
# through PoCL: BabelStream's OpenCL and OpenMP builds and clbench,
# three alternating rounds at 2^25 elements, 100 timed repetitions each
# (scripts/babelstream_side_by_side.sh): clbench's default (streaming stores
# on CPUs where the compiler has them), plain stores (nt=0), and the device's
# first touch (init=device). Then the GPU's stream at its default sizes: the
# test-free kernel (-DEXACT) on NVIDIA against the committed H200 rows.
# BabelStream's source travels in .babelstream/ (ignored through
# .git/info/exclude; never committed); the headers its OpenCL build needs
# (CL/opencl.hpp) come with .device-deps (opencl-clhpp-headers,
# opencl-c-headers). Within 5 minutes on 16 cores.
src=.babelstream
if [ ! -f "$src/src/main.cpp" ]; then
  echo "plan babelstream: no BabelStream source tree in $src/" >&2
  exit 2
fi
# BS_SIZE, BS_ROUNDS, BS_REPS, BS_LIMIT: another size (2^27: past the host's
# 300 MiB L3 in both types), fewer rounds or repetitions, another time limit
timeout -k 10 "${BS_LIMIT:-300}" bash scripts/babelstream_side_by_side.sh -c /tmp/b/clbench \
  -b /tmp/bs -d "$CPU" -r "${BS_ROUNDS:-3}" -s "${BS_SIZE:-33554432}" -n "${BS_REPS:-100}" \
  --variant default= --variant 'nt0=--param nt=0' --variant 'initdev=--param init=device' \
  -o "$OUT/babelstream-pocl.csv" "$src"
[ "$GPU" = skip ] || $CB run stream -d "$GPU" -o "$OUT/stream-gpu.csv"
