#!/bin/sh
# SPDX-License-Identifier: MIT
# The web search workload (platforms/workloads/websearch.cdf) at 50% load
# of every host's link on a two-level fat tree of K-port switches (default
# 36: 648 HCAs), for DURATION of flow arrivals (default 10ms), under
# --model roce with PFC, ECN at the switches (HPCC's simulator's 100 Gb/s
# thresholds: Kmin 400 KB, Kmax 1,600 KB, Pmax 0.2) and the congestion
# control CC (default dcqcn; none, hpcc, timely), data off. Prints the
# run's wall and CPU time, peak memory, events and events per wall
# second, and the flows' count and FCT slowdown percentiles.
#   bench/websearch.sh IBFSIM [K [DURATION [CC]]]
BIN=${1:?usage: bench/websearch.sh IBFSIM [K [DURATION [CC]]]}
K=${2:-36}; D=${3:-10ms}; CC=${4:-dcqcn}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN" topo gen fat-tree --k "$K" --levels 2 -o "$tmp/ft.xml" || exit 1
cat >"$tmp/ws.xml" <<XML
<?xml version="1.0"?>
<scenario version="1" name="websearch-k$K-$CC">
  <fabric file="$tmp/ft.xml"/>
  <transport model="roce" pfc="on" cc="$CC">
    <ecn kmin="400KB" kmax="1600KB" pmax="0.2"/>
  </transport>
  <traffic>
    <pattern kind="flows" sizes="websearch" load="0.5"
             placement="all-to-all" duration="$D"/>
  </traffic>
</scenario>
XML
/usr/bin/time -f "%e %U %S %M" "$BIN" run "$tmp/ws.xml" --no-data --quiet \
	--json "$tmp/ws.json" >"$tmp/out" 2>"$tmp/time" || {
	echo "bench/websearch.sh: the run failed" >&2
	cat "$tmp/time" "$tmp/out" >&2
	exit 1
}
tail -n 1 "$tmp/time" | awk '{ printf "wall %.1f s, cpu %.1f s, peak %.2f GiB\n",
	$1, $2 + $3, $4 / 1048576 }'
python3 - "$tmp/ws.json" "$(tail -n 1 "$tmp/time" | cut -d' ' -f1)" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
wall = float(sys.argv[2])
f = j.get("fct", {}).get("flows", {})
s = j.get("fct", {}).get("fct_slowdown", {})
print("simulated %.3f ms, %d events, %.2f M events per wall second"
      % (j["sim_time_ns"] / 1e6, j["events"], j["events"] / wall / 1e6))
print("flows: %s started, %s finished, %s unfinished"
      % (f.get("started"), f.get("finished"), f.get("unfinished")))
print("FCT slowdown p50 %s, p95 %s, p99 %s" % (s.get("p50"), s.get("p95"),
                                               s.get("p99")))
PY
