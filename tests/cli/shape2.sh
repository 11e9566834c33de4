#!/usr/bin/env bash
# A second device shape (CTest label shape2): run a CLI test on PoCL with the
# limits it reports changed through PoCL's own sources of them, so that a test
# that bakes in one machine's limits fails here first (docs/PORTABILITY.md,
# "A second device shape"):
#   POCL_MAX_WORK_GROUP_SIZE=256   PoCL 3.1 (lib/CL/devices/common.c) caps the
#                                  work-group and each dimension at it (4096 by
#                                  default): AMD GPUs' 256 instead of a CPU's 4096
#   HWLOC_SYNTHETIC=...            PoCL 3.1 takes the local memory from the L2 of
#                                  hwloc's topology (devices/topology) and the
#                                  global memory cache from its L3: a made-up
#                                  topology of this machine's cores and memory
#                                  with a 64 KiB L2 (local memory as a GPU's) and
#                                  a 32 MiB L3, instead of the host's own
#   POCL_MEMORY_LIMIT=N            (GiB) the global memory the device reports
#                                  without the made-up topology, as near as
#                                  whole GiB say it: only the limits above change
#   usage: shape2.sh TEST_SCRIPT
set -eu
mem_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
cores=$(nproc)
# PoCL's device, as `clbench list -v --wide` details it
pocl() {
  "$CLBENCH" list -v --wide 2>/dev/null |
    awk '/\(Portable Computing Language\)/ {f = 1; print; next} f && /^ / {print} f && !/^ / {exit}'
}
gb=$(pocl | sed -n 's/^ *memory \([0-9.]*\) GB,.*/\1/p')
[ -n "$gb" ] || { echo "FAIL: no PoCL device in 'clbench list -v'" >&2; exit 1; }
export POCL_MEMORY_LIMIT=$(awk -v g="$gb" 'BEGIN { n = int(g * 1e9 / 1073741824); if (n < 1) n = 1; print n }')
export POCL_MAX_WORK_GROUP_SIZE=256
export HWLOC_SYNTHETIC="numa:1(memory=${mem_kib}KiB) l3:1(size=32MiB) l2:${cores}(size=64KiB) l1d:1(size=32KiB) pu:1"
# the shape really changed: else the test would pass for the wrong reason
limits=$(pocl)
echo "$limits" | grep -q 'local 64 KB' && echo "$limits" | grep -q 'work-group <= 256 (256 x 256 x 256)' || {
  echo "FAIL: PoCL does not report the second shape (work-group 256, 64 KB local): $limits" >&2
  exit 1
}
echo "shape2: PoCL work-group <= 256, local 64 KiB, cache 32 MiB, memory $POCL_MEMORY_LIMIT GiB"
exec bash "$@"
