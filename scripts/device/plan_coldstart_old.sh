# Cold start, before: the default suite as the code before
# built its programs -- no program-binary cache -- first with
# an empty NVIDIA compute (JIT) cache, then again with it warm. Give the plan
# CB_TIMEOUT=420. plan_coldstart_new.sh is the after, on the same machine.
D=${COLDSTART_DIR:-/tmp/coldstart}; mkdir -p "$D"
suite() { local name=$1 nv=$2 xdg=$3; shift 3; local t0; t0=$(date +%s)
  CUDA_CACHE_PATH=$D/$nv XDG_CACHE_HOME=$D/$xdg $CB run all -d $GPU -o $OUT/h100-coldstart.csv "$@" \
    2> >(tee "$D/$name.err" >&2)
  echo "$name: exit $?, $(( $(date +%s) - t0 )) s; progress totals: $(grep -o '^\[[0-9]*/[0-9]*\]' "$D/$name.err" | sed 's|.*/||; s|]||' | sort -u | tr '\n' ' ')"; }
rm -rf "$D/nv-old" "$D/xdg-old"
suite old-cold nv-old xdg-old --no-cache
suite old-warm nv-old xdg-old --no-cache
