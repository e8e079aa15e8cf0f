#!/bin/sh
# SPDX-License-Identifier: MIT
# Alternates runs of two bench_fabric binaries in the same minutes, so that
# a shared host's drift falls on both, and prints each one's fastest and
# median CPU time and events per CPU second (the fat tree's line).
# Copy the binaries first: a rebuild must not change one between runs.
# Usage: bench/ab.sh BIN_A BIN_B [PAIRS [LOAD [PACKETS [RADIX]]]]
# (defaults: 5 pairs, 100% offered load, 2000 packets an endpoint, radix 36)
A=$1; B=$2; N=${3:-5}; L=${4:-100}; P=${5:-2000}; K=${6:-36}
if [ -z "$A" ] || [ -z "$B" ]; then
	echo "usage: $0 BIN_A BIN_B [PAIRS [LOAD [PACKETS [RADIX]]]]" >&2
	exit 2
fi
# Both binaries on glibc's heap on huge pages, so that a build that
# restarts itself so (src/fabric/huge_pages.c) and one that does not
# compare alike; the tunable already set makes the former skip the restart.
case "${GLIBC_TUNABLES:-}" in
*glibc.malloc.hugetlb*) ;;
*) GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"
   export GLIBC_TUNABLES ;;
esac
ra=""; rb=""
for i in $(seq "$N"); do
	a=$("$A" 1 "$P" "$L" "$K" 2>&1 | grep -o "cpu [0-9.]* s: [0-9.]*" |
		tail -1 | awk '{print $2, $4}')
	b=$("$B" 1 "$P" "$L" "$K" 2>&1 | grep -o "cpu [0-9.]* s: [0-9.]*" |
		tail -1 | awk '{print $2, $4}')
	# A run that failed (a bad argument, a conservation error) prints
	# no figure: say so rather than rank an empty line.
	if [ -z "$a" ] || [ -z "$b" ]; then
		[ -z "$a" ] && bin=$A || bin=$B
		echo "$0: $bin printed no fat-tree figure; run it alone" \
		     "to see why" >&2
		exit 1
	fi
	ra="$ra
$a"
	rb="$rb
$b"
done
for x in A B; do
	if [ "$x" = A ]; then r="$ra"; else r="$rb"; fi
	echo "$r" | sed '/^$/d' | sort -n | awk -v n="$x" '
		{ c[NR] = $1; e[NR] = $2 }
		END {
			m = int((NR + 1) / 2)
			printf "%s: cpu min %.3f med %.3f  M events/s best %.1f med %.1f\n",
			       n, c[1], c[m], e[1], e[m]
		}'
done
