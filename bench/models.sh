#!/bin/sh
# SPDX-License-Identifier: MIT
# The same permutation under --model ib and --model roce in the same
# minutes, alternating, so that a shared host's drift falls on both: a
# random permutation of 1 MiB RDMA WRITEs (data off) on the fat tree of
# K-port switches with LEVELS levels (default 36 and 2: 648 HCAs; 36 3:
# 11,664), ftree's tables written at time 0 under ib, ECMP under roce.
# Prints each run's CPU seconds and peak memory, then the median ratio
# roce / ib.
#   bench/models.sh IBFSIM [K [LEVELS [PAIRS]]]
BIN=${1:?usage: bench/models.sh IBFSIM [K [LEVELS [PAIRS]]]}
K=${2:-36}; L=${3:-2}; N=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN" topo gen fat-tree --k "$K" --levels "$L" -o "$tmp/ft.xml" || exit 1
cat >"$tmp/perm.xml" <<XML
<?xml version="1.0"?>
<scenario version="1" name="permutation">
  <fabric file="$tmp/ft.xml"/>
  <subnet-manager routing="ftree" mode="instant"/>
  <traffic><pattern kind="permutation" op="write" size="1MiB"/></traffic>
</scenario>
XML
# One run: "CPU_SECONDS PEAK_KB".
one() {
	/usr/bin/time -f "%U %S %M" "$BIN" run "$tmp/perm.xml" --no-data \
		--quiet --model "$1" >/dev/null 2>"$tmp/time" || {
		echo "bench/models.sh: the $1 run failed" >&2
		cat "$tmp/time" >&2
		exit 1
	}
	tail -n 1 "$tmp/time" | awk '{ printf "%.2f %d\n", $1 + $2, $3 }'
}
for i in $(seq "$N"); do
	ib=$(one ib); roce=$(one roce)
	echo "ib: cpu ${ib% *} s, ${ib#* } KB; roce: cpu ${roce% *} s," \
	     "${roce#* } KB"
	echo "${ib% *} ${roce% *}" >>"$tmp/pairs"
done
awk '{ printf "%.4f\n", $2 / $1 }' "$tmp/pairs" | sort -n | awk '
	{ r[NR] = $1 }
	END { printf "roce / ib CPU time, median of %d: %.2f\n", NR,
		     r[int((NR + 1) / 2)] }'
