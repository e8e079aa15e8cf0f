#!/bin/sh
# SPDX-License-Identifier: MIT
# The scale check (docs/performance.md): a three-level fat tree of K-port
# switches (K^3/4 HCAs), a random permutation of SIZE RC WRITEs (one an
# HCA, data off), ftree routing brought up in-band by the SM; prints the
# run's summary lines and /usr/bin/time's user, system, wall time and
# peak memory. Takes minutes and gigabytes past K=36: not a test.
# Usage: bench/scale.sh IBFSIM [K [SIZE]]   (defaults: K=48, 64KiB)
IBFSIM=$1; K=${2:-48}; SIZE=${3:-64KiB}
if [ -z "$IBFSIM" ]; then
	echo "usage: $0 IBFSIM [K [SIZE]]" >&2
	exit 2
fi
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
"$IBFSIM" topo gen fat-tree --k "$K" --levels 3 -o "$dir/ft.xml" || exit 1
cat >"$dir/perm.xml" <<EOS
<?xml version="1.0"?>
<scenario version="1" name="scale-k$K">
  <fabric file="ft.xml"/>
  <subnet-manager routing="ftree"/>
  <traffic><pattern kind="permutation" op="write" size="$SIZE"/></traffic>
</scenario>
EOS
/usr/bin/time -f "user %U s, system %S s, wall %e s, max RSS %M KB" \
	"$IBFSIM" run "$dir/perm.xml" --no-data --quiet 2>&1 |
	grep -v '^  [^ ]* -> '
