#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Our SA's PathRecords against the real OpenSM's (tests/README.md, "Real
# tools"): for each fabric, OpenSM runs over ibsim (with our LIDs seeded
# in its guid2lid cache) and saquery --src-to-dst asks its SA for the
# PathRecord of HCA pairs; tests/sa_path_dump asks ours, over our
# simulated wire, and prints it as saquery does; every field must be the
# same (service_id and the reserved bytes aside). The fabrics' MTU is set
# to 2048, the MTU ibsim's ports report, which OpenSM's path MTU follows.
# Needs ibsim, libumad2sim.so (Debian ibsim-utils), opensm and saquery
# (infiniband-diags); without them it says so and exits 77 (SKIP).
set -u

: "${IBFSIM:?IBFSIM must name the ibfsim binary}"
: "${top_srcdir:?top_srcdir must be set}"
dump=${SA_PATH_DUMP:-${top_builddir:-$(dirname "$IBFSIM")}/tests/sa_path_dump}

. "$top_srcdir/tests/ibsim_lib.sh"
ibsim_require "the OpenSM SA comparison" "opensm ibsim-utils infiniband-diags" \
	opensm saquery
[ -x "$dump" ] || { echo "FAIL: no $dump"; exit 1; }
ibsim_tmp ibfs-osa
osm_pid=
trap 'osm_stop; ibsim_stop; rm -rf "$tmp"' EXIT INT TERM
fails=0 checked=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

osm_stop() {
	[ -n "$osm_pid" ] || return 0
	kill "$osm_pid" 2>/dev/null
	wait "$osm_pid" 2>/dev/null
	osm_pid=
}

# The fields both print, in saquery's order.
fields() {
	grep -E '^[[:space:]]+(dgid|sgid|dlid|slid|hop_flow_raw|tclass|num_path_revers|pkey|qos_class|sl|mtu|rate|pkt_life|preference)\.'
}

# compare NAME FABRIC SRC:DST...: OpenSM's answers and ours.
compare() {
	name=$1 fab=$2
	shift 2
	d=$tmp/$name
	mkdir -p "$d/cache"
	sed 's/mtu="4096"/mtu="2048"/' "$fab" >"$d/fab.xml"
	"$IBFSIM" topo export "$d/fab.xml" --format ibnetdiscover \
		-o "$d/fab.net" || { fail "export $name"; return; }
	"$IBFSIM" route "$d/fab.xml" --dump-lfts "$d/ours.dump" \
		>/dev/null || { fail "route $name"; return; }
	awk '/^0x/ { for (i = 4; i < NF; i++) if ($i == "portguid") {
			g = $(i + 1); sub(":", "", g); print g, $1 } }' \
		"$d/ours.dump" | sort -u |
		awk '{printf "%s %s %s\n\n", $1, $2, $2}' >"$d/cache/guid2lid"
	sock="ibfs-osa-$$-$name"
	ibsim_start "$d/fab.net" "$d/ibsim.log" "$sock" ||
		{ fails=$((fails + 1)); return; }
	host=$(awk '/^Ca\t/ {gsub(/"/, "", $3); print $3; exit}' "$d/fab.net")
	IBSIM_SOCKNAME=$sock SIM_HOST=$host OSM_CACHE_DIR=$d/cache \
		OSM_TMP_DIR=$d LD_PRELOAD=$umad2sim \
		timeout 300 opensm -f "$d/osm.log" -D 0x43 -d2 -R minhop \
		>"$d/opensm.out" 2>&1 &
	osm_pid=$!
	i=0
	until grep -q "SUBNET UP" "$d/osm.log" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 600 ]; then
			fail "opensm did not bring $name up"
			osm_stop
			ibsim_stop
			return
		fi
		sleep 0.1
	done
	for pair in "$@"; do
		src=${pair%%:*}
		"$dump" "$d/fab.xml" "$pair" | fields >"$d/ours.pr"
		# By LIDs (ours, which OpenSM was seeded with): saquery's
		# lookup of node names fails over ibsim.
		lids=$(awk '$1 ~ /^slid/ {sub(/.*\./, "", $1); s = $1}
			$1 ~ /^dlid/ {sub(/.*\./, "", $1); d = $1}
			END {print s ":" d}' "$d/ours.pr")
		IBSIM_SOCKNAME=$sock SIM_HOST=$src LD_PRELOAD=$umad2sim \
			timeout 60 saquery --src-to-dst "$lids" 2>/dev/null |
			fields >"$d/osm.pr" || true
		if [ ! -s "$d/osm.pr" ]; then
			fail "$name $pair: saquery gave no PathRecord"
		elif ! cmp -s "$d/osm.pr" "$d/ours.pr"; then
			fail "$name $pair: ours differ from OpenSM's:"
			diff "$d/osm.pr" "$d/ours.pr"
		else
			checked=$((checked + 1))
		fi
	done
	osm_stop
	ibsim_stop
}

compare star "$top_srcdir/platforms/star.xml" \
	node2:node3 node4:node1 node3:node2
compare fat-tree-k4-l2 "$top_srcdir/platforms/fat-tree-k4-l2.xml" \
	node1:node8 node5:node2 node3:node4
echo "opensm_sa: $checked PathRecords as OpenSM's, $fails failed"
[ "$fails" -eq 0 ] && [ "$checked" -gt 0 ]
