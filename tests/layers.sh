#!/usr/bin/env bash
# Layers that point one way (README, "Layout"): over the link map of the
# object files of host/<folder>/, no folder calls a function (or uses a
# variable) defined in a folder above it. The command line (cli) is the top:
# nothing below calls it; the core, the workloads and the models call neither
# the command line nor compare; the cache module calls only the core.
# Usage: layers.sh OBJECT... (the clbench_core objects, host/<folder>/...o)
set -u
[ $# -gt 0 ] || { echo "usage: layers.sh OBJECT..."; exit 2; }
# folder: the folders it must not call
forbidden() {
  case $1 in
    core|workloads|models) echo "cli compare" ;;
    cache) echo "cli compare workloads models" ;;
    compare) echo "cli" ;;
  esac
}
folder() { local p=${1#*/host/}; [ "$p" != "$1" ] && echo "${p%%/*}"; }
declare -A defs
for o in "$@"; do
  f=$(folder "$o") || continue
  defs[$f]+=$(nm --defined-only "$o" | awk 'NF==3 && $2 ~ /^[TDBR]$/ {print " " $3}')
done
[ -n "${defs[cli]:-}" ] && [ -n "${defs[core]:-}" ] || { echo "FAIL no cli or core objects given"; exit 1; }
status=0 checked=0
for o in "$@"; do
  lower=$(folder "$o") || continue
  for upper in $(forbidden "$lower"); do
    checked=$((checked + 1))
    bad=$(comm -12 <(nm -u "$o" | awk '{print $2}' | sort -u) <(tr ' ' '\n' <<<"${defs[$upper]:-}" | sort -u))
    if [ -n "$bad" ]; then
      echo "FAIL ${o#*/host/} ($lower) calls $upper: $(echo $bad)"
      status=1
    fi
  done
done
[ "$checked" -gt 0 ] || { echo "FAIL no object checked"; exit 1; }
[ $status -eq 0 ] && echo "ok: $checked object/layer pairs, no call points up"
exit $status
