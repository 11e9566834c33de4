# Cold start, after: the default suite with the program-binary
# cache (the default), first with both the NVIDIA compute
# cache and clbench's cache empty (cold: a fresh machine), then again (warm).
# Targets: cold <= 150 s, warm <= 110 s. Give the plan CB_TIMEOUT=420; run
# plan_coldstart_old.sh in the same session for the before.
D=${COLDSTART_DIR:-/tmp/coldstart}; mkdir -p "$D"
suite() { local name=$1 nv=$2 xdg=$3; shift 3; local t0; t0=$(date +%s)
  CUDA_CACHE_PATH=$D/$nv XDG_CACHE_HOME=$D/$xdg $CB run all -d $GPU -o $OUT/h100-coldstart.csv "$@" \
    2> >(tee "$D/$name.err" >&2)
  echo "$name: exit $?, $(( $(date +%s) - t0 )) s; progress totals: $(grep -o '^\[[0-9]*/[0-9]*\]' "$D/$name.err" | sed 's|.*/||; s|]||' | sort -u | tr '\n' ' ')"; }
rm -rf "$D/nv-new" "$D/xdg-new"
suite new-cold nv-new xdg-new
suite new-warm nv-new xdg-new
XDG_CACHE_HOME=$D/xdg-new ${CLBENCH_BIN:-/tmp/b/clbench} cache info 2>&1 | sed "s|^|cache: |"
