#!/usr/bin/env bash
# Layers that point one way (README, "Layout"): over the link map of the
# object files of host/<folder>/, no folder calls a function (or uses a
# variable) defined in a folder above it. The command line (cli) is the top:
# nothing below calls it; the core and the workloads call neither the command
# line, compare, the charts nor the report; the models draw through the charts
# (model scaling's figure) and compare's plot service (clb_plot_draw), never the
# command line or the report, and compare calls no model; the charts call no
# compare, model, report or workload (they escape through the text module);
# the text module (host/text: the one escaping function) calls only the core;
# the report calls all but the command line; the cache module calls only the
# core.
# Usage: layers.sh OBJECT... (the clbench_core objects, host/<folder>/...o)
set -u
[ $# -gt 0 ] || { echo "usage: layers.sh OBJECT..."; exit 2; }
# lines "D folder symbol" (defined) and "U folder object symbol" (used)
# (nm -A: "path:address type symbol", "path: U symbol")
map=$({ nm -A --defined-only "$@" | awk '$(NF-1) ~ /^[TDBR]$/ {sub(/:.*/, "", $1); print "D", $1, $NF}'
        nm -A -u "$@" | awk '{sub(/:.*/, "", $1); print "U", $1, $NF}'; } |
      sed -E 's/^([DU]) ([^ ]*\/host\/([^/]+)\/[^ ]*)/\1 \3 \2/' | grep -E '^[DU] [a-z]+ ')
[ -n "$(echo "$map" | awk '$1=="D" && $2=="cli"')" ] && [ -n "$(echo "$map" | awk '$1=="D" && $2=="core"')" ] ||
  { echo "FAIL no cli or core objects given"; exit 1; }
echo "$map" | awk '
  BEGIN { split("core:cli compare chart report|workloads:cli compare chart report|models:cli report|cache:cli compare workloads models chart report|compare:cli models report|chart:cli compare models report workloads|text:cli compare chart report models workloads cache|report:cli", r, "|")
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
  }'
