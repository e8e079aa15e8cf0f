# SPDX-License-Identifier: MIT
#
# What the tests that run the real tools over ibsim share (sourced by
# opensm_conformance.sh and ibnetdiscover_roundtrip.sh; tests/README.md, "Real
# tools"): finding libumad2sim.so, skipping when a tool is missing, a
# scratch directory, and starting and stopping one ibsim.

umad2sim=
for p in /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \
	/usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so \
	/usr/lib64/umad2sim/libumad2sim.so; do
	if [ -f "$p" ]; then umad2sim=$p; break; fi
done

# ibsim_require WHAT PACKAGES TOOL...: exits 77 (SKIP), saying so, unless
# ibsim, libumad2sim.so, timeout and every TOOL are there.
ibsim_require() {
	what=$1 pkgs=$2
	shift 2
	missing=
	[ -n "$umad2sim" ] || missing="$missing libumad2sim.so"
	for tool in ibsim timeout "$@"; do
		command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
	done
	if [ -n "$missing" ]; then
		echo "SKIP: $what needs$missing (Debian: apt-get install $pkgs)"
		exit 77
	fi
}

# ibsim_tmp PREFIX: a scratch directory in $tmp, removed at exit with any
# ibsim still running.
ibsim_pid=
ibsim_tmp() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 99
	trap 'ibsim_stop; rm -rf "$tmp"' EXIT INT TERM
}

# ibsim_start NET LOG SOCK: ibsim on NET in the background, socket SOCK,
# output in LOG; returns once it has parsed NET (1 if it never does).
ibsim_start() {
	IBSIM_SOCKNAME=$3 timeout 120 ibsim -s -n "$1" >"$2" 2>&1 &
	ibsim_pid=$!
	i=0
	until grep -q "parsed" "$2" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 600 ]; then # 60 s: a loaded machine starts it slowly
			echo "FAIL: ibsim did not start on $1"
			cat "$2"
			return 1
		fi
		sleep 0.1
	done
	sleep 0.2
}

# ibsim_opensm NET OUT ENGINE DEBUG [opensm args...]: one sweep of the real
# OpenSM (-o) over an ibsim of its own on NET, run on NET's first HCA, with
# its log (-D DEBUG) in OUT/osm.log, its dumps in OUT/dump and its cache
# (OUT/cache, seed it before) there too. Returns opensm's exit status, or
# 1 if ibsim did not start.
ibsim_opensm() {
	_net=$1 _out=$2 _eng=$3 _dbg=$4
	shift 4
	mkdir -p "$_out/cache" "$_out/dump"
	_sock="ibfs-$$-$(basename "$(dirname "$_out")")-$(basename "$_out")"
	ibsim_start "$_net" "$_out/ibsim.log" "$_sock" || return 1
	_host=$(awk '/^Ca\t/ {gsub(/"/, "", $3); print $3; exit}' "$_net")
	IBSIM_SOCKNAME=$_sock SIM_HOST=$_host OSM_CACHE_DIR=$_out/cache \
		OSM_TMP_DIR=$_out LD_PRELOAD=$umad2sim \
		timeout 120 opensm -o -f "$_out/osm.log" -D "$_dbg" \
		--dump_files_dir "$_out/dump" -R "$_eng" "$@" \
		>"$_out/opensm.out" 2>&1
	_rc=$?
	ibsim_stop
	return $_rc
}

ibsim_stop() {
	[ -n "$ibsim_pid" ] || return 0
	kill "$ibsim_pid" 2>/dev/null
	wait "$ibsim_pid" 2>/dev/null
	ibsim_pid=
}
