#!/usr/bin/env bash
# Layers that point one way (README, "Layout"): no folder of host/ calls a
# function (or uses a variable) defined in a folder above it, over the link
# map of the object files of host/<folder>/, nor includes a header of one
# (the #include lines of host/<folder>/'s sources: include/clb_compare.h is
# compare's, clb_report.h the report's, clb_chart.h the charts', clb_text.h
# the text module's, clb_cache.h the cache's, clb_model.h and clb_scaling.h
# the models'; a header under host/<folder>/ is that folder's; the other
# headers of include/ are the core's interface). The command line (cli) is
# the top: nothing below calls it; the core and the workloads call neither
# the command line, compare, the charts nor the report; the models draw
# through the charts (model scaling's figure), never the command line,
# compare or the report, and compare calls no model; the charts call no
# compare, model, report or workload (they escape through the text module);
# the text module (host/text: the one escaping function) calls only the
# core; the report calls all but the command line; the cache module calls
# only the core.
# Usage: layers.sh OBJECT... (the clbench_core objects, host/<folder>/...o)
set -u
[ $# -gt 0 ] || { echo "usage: layers.sh OBJECT..."; exit 2; }
host=$(cd "$(dirname "$0")/../host" && pwd)
# folder: the folders it may neither call nor include
forbid="core:cli compare chart report|workloads:cli compare chart report|models:cli compare report"
forbid+="|cache:cli compare workloads models chart report|compare:cli models report"
forbid+="|chart:cli compare models report workloads|report:cli"
forbid+="|text:cli compare chart report models workloads cache"
# lines "D folder symbol" (defined) and "U folder object symbol" (used)
# (nm -A: "path:address type symbol", "path: U symbol")
map=$({ nm -A --defined-only "$@" | awk '$(NF-1) ~ /^[TDBR]$/ {sub(/:.*/, "", $1); print "D", $1, $NF}'
        nm -A -u "$@" | awk '{sub(/:.*/, "", $1); print "U", $1, $NF}'; } |
      sed -E 's/^([DU]) ([^ ]*\/host\/([^/]+)\/[^ ]*)/\1 \3 \2/' | grep -E '^[DU] [a-z]+ ')
[ -n "$(echo "$map" | awk '$1=="D" && $2=="cli"')" ] && [ -n "$(echo "$map" | awk '$1=="D" && $2=="core"')" ] ||
  { echo "FAIL no cli or core objects given"; exit 1; }
status=0
echo "$map" | awk -v rules="$forbid" '
  BEGIN { split(rules, r, "|")
          for (i in r) { split(r[i], kv, ":"); forbid[kv[1]] = " " kv[2] " " } }
  $1 == "D" { owner[$4] = $2; next }
  { use[++n] = $2 " " $3 " " $4 }
  END {
    for (i = 1; i <= n; i++) {
      split(use[i], u, " "); o = owner[u[3]]
      if (o != "" && index(forbid[u[1]], " " o " ")) { bad[u[2] " (" u[1] ") calls " o] = bad[u[2] " (" u[1] ") calls " o] " " u[3]; status = 1 }
      checked++
    }
    for (b in bad) { name = b; sub(/.*\/host\//, "", name); print "FAIL " name ":" bad[b] }
    if (!status) print "ok: " checked " calls checked, none points up"
    exit status
  }' || status=1
# the includes: lines "folder file header-owner header"
owner() {   # owner FILE HEADER: the folder whose header it is
  local dir=${1%/*} h=$2 found
  case $h in
    clb_compare.h) echo compare ;; clb_report.h) echo report ;; clb_chart.h) echo chart ;;
    clb_text.h) echo text ;; clb_cache.h) echo cache ;; clb_model.h|clb_scaling.h) echo models ;;
    *) if [ -e "$dir/$h" ]; then found=$(cd "$(dirname "$dir/$h")" && pwd)
       elif [ -e "$host/../include/$h" ]; then echo core; return
       else found=$(find "$host" -name "${h##*/}" -print -quit); found=${found%/*}; fi
       found=${found#"$host"/}; echo "${found%%/*}" ;;
  esac
}
inc=$(cd "$host" && grep -rHoE '^#include "[^"]+"' --include='*.[ch]' . |
      while IFS=: read -r file line; do
        h=${line#*\"}; h=${h%\"}; f=${file#./}
        echo "${f%%/*} $f $(owner "$host/$f" "$h") $h"
      done)
echo "$inc" | awk -v rules="$forbid" '
  BEGIN { split(rules, r, "|")
          for (i in r) { split(r[i], kv, ":"); forbid[kv[1]] = " " kv[2] " " } }
  NF == 4 { n++; if (index(forbid[$1], " " $3 " ")) { print "FAIL " $2 " (" $1 ") includes " $4 " (" $3 ")"; status = 1 } }
  END { if (!status) print "ok: " n " includes checked, none points up"; exit status }' || status=1
exit $status
