# BabelStream [Deakin16] beside clbench stream on the GPU machine's host CPU
# through PoCL (issue 40): BabelStream's OpenCL and OpenMP builds and clbench,
# three alternating rounds at 2^25 elements, 100 timed repetitions each
# (scripts/babelstream_side_by_side.sh). BabelStream's source travels in
# .babelstream/ (ignored through .git/info/exclude; never committed); the
# headers its OpenCL build needs (CL/opencl.hpp) come with .device-deps
# (DEVICE_DEBS adds opencl-clhpp-headers opencl-c-headers). Within 4 minutes
# on 16 cores: the builds about 1, each round under 1.
src=.babelstream
if [ ! -f "$src/src/main.cpp" ]; then
  echo "plan babelstream: no BabelStream source tree in $src/" >&2
  exit 2
fi
timeout -k 10 230 bash scripts/babelstream_side_by_side.sh -c /tmp/b/clbench -b /tmp/bs \
  -d "$CPU" -r 3 -s 33554432 -n 100 --variant default= --variant 'nt0=--param nt=0' \
  -o "$OUT/babelstream-pocl.csv" "$src"
