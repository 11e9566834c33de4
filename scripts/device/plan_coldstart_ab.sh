# Cold start, which part costs or saves what (one machine): the default suite
# cold with the defaults (the program-binary cache), then warm two ways on the
# same NVIDIA JIT cache: the defaults; without the cache (--no-cache). (The
# builder threads these figures once also compared were removed.)
# Give the plan CB_TIMEOUT=280.
D=${COLDSTART_DIR:-/tmp/coldstart}; mkdir -p "$D"
suite() { local name=$1; shift; local t0; t0=$(date +%s)
  CUDA_CACHE_PATH=$D/nv-ab XDG_CACHE_HOME=$D/xdg-ab $CB run all -d $GPU -o $OUT/h100-coldstart-ab.csv "$@" \
    2> "$D/$name.err"
  echo "$name: exit $?, $(( $(date +%s) - t0 )) s"; }
rm -rf "$D/nv-ab" "$D/xdg-ab"
suite ab-cold
suite ab-warm-defaults
suite ab-warm-no-cache --no-cache
