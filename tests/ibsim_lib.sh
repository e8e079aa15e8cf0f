# SPDX-License-Identifier: MIT
#
# What the tests that run the real tools over ibsim share (sourced by
# opensm_conformance.sh and ibnetdiscover_roundtrip.sh; DESIGN.md "Real
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

ibsim_stop() {
	[ -n "$ibsim_pid" ] || return 0
	kill "$ibsim_pid" 2>/dev/null
	wait "$ibsim_pid" 2>/dev/null
	ibsim_pid=
}
