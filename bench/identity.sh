#!/bin/sh
# SPDX-License-Identifier: MIT
# The identity check: a change that must not alter what ibfsim computes
# keeps every run's results byte for byte. Writes the results of every
# scenario of examples/*.xml (--json, the text report and the --csv tables) and of a
# 1,024-HCA permutation (1 MiB RDMA WRITEs on a k=16 three-level fat tree,
# ftree routing; --json) with and without data into OUT_DIR, less what
# measures the host or the engine's bookkeeping: wall_s and events in the
# JSON, the text's "simulated ... in S s (N events)" line.
#
#   bench/identity.sh IBFSIM OUT_DIR
#   diff -r BEFORE_DIR AFTER_DIR      # no output: identical
#
# Run it with the binary before a change and after it, then compare.
set -e
BIN=${1:?usage: bench/identity.sh IBFSIM OUT_DIR}
OUT=${2:?usage: bench/identity.sh IBFSIM OUT_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
# The runs start in examples/ (their fabric paths are relative to it): make
# both paths absolute first.
case $BIN in /*) ;; */*) BIN=$(pwd)/$BIN ;; *) BIN=$(command -v "$BIN") ;; esac
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strip() { grep -v -e '"wall_s"' -e '"events"' "$1"; }
for x in "$top"/examples/*.xml; do
	n=$(basename "$x" .xml)
	# Scenarios only (a sweep's grid is not one).
	grep -q '^<scenario ' "$x" || continue
	st=0
	(cd "$top/examples" && "$BIN" run "$x" --quiet --json "$tmp/$n.json" \
		--csv "$OUT/$n.csv" >"$tmp/$n.txt") || st=$?
	echo "exit $st" >"$OUT/$n.status"
	[ -f "$tmp/$n.json" ] && strip "$tmp/$n.json" >"$OUT/$n.json"
	sed 's/^\(simulated .*\) in [0-9.]* s ([0-9]* events)$/\1/' \
		"$tmp/$n.txt" >"$OUT/$n.txt"
done
"$BIN" topo gen fat-tree --k 16 --levels 3 -o "$tmp/ft16.xml"
cat >"$tmp/perm.xml" <<XML
<?xml version="1.0"?>
<scenario version="1" name="permutation-1024">
  <fabric file="$tmp/ft16.xml"/>
  <subnet-manager routing="ftree"/>
  <traffic><pattern kind="permutation" op="write" size="1MiB"/></traffic>
</scenario>
XML
"$BIN" run "$tmp/perm.xml" --quiet --json "$tmp/perm.json" >/dev/null
strip "$tmp/perm.json" >"$OUT/permutation-1024.json"
"$BIN" run "$tmp/perm.xml" --quiet --no-data --json "$tmp/perm-nd.json" \
	>/dev/null
strip "$tmp/perm-nd.json" >"$OUT/permutation-1024-no-data.json"
