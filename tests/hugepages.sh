#!/bin/sh
# SPDX-License-Identifier: MIT
# The huge-page restart of `ibfsim run` (src/fabric/huge_pages.c, called
# from src/cli/main.c): results are the same with it and without it
# (IBFSIM_HUGEPAGES=0), and, where strace is installed, the run starts
# twice (the second time with the glibc tunable added to those already
# set) while IBFSIM_HUGEPAGES=0 and an already restarted run start once.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
ex="$top_srcdir/examples/fat_tree_permutation.xml"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$IBFSIM" run "$ex" --quiet --json "$out/on.json" >/dev/null || bad "run"
IBFSIM_HUGEPAGES=0 "$IBFSIM" run "$ex" --quiet --json "$out/off.json" \
	>/dev/null || bad "run with IBFSIM_HUGEPAGES=0"
grep -v '"wall_s"' "$out/on.json" >"$out/on"
grep -v '"wall_s"' "$out/off.json" >"$out/off"
if [ -s "$out/on" ] && cmp -s "$out/on" "$out/off"; then ok; else
	bad "results differ with and without huge pages"; fi

# Counts the program's starts (execve calls) under strace.
starts() {
	strace -f -qq -s 400 -v -e trace=execve -o "$out/trace" "$@" \
		>/dev/null 2>&1
	grep -c 'execve(' "$out/trace"
}
if command -v strace >/dev/null 2>&1 &&
	strace -o /dev/null true >/dev/null 2>&1; then
	n=$(GLIBC_TUNABLES=glibc.malloc.check=0 starts "$IBFSIM" run "$ex" \
		--quiet)
	[ "$n" = 2 ] && ok || bad "default: $n starts, want 2"
	if grep -q 'GLIBC_TUNABLES=glibc.malloc.check=0:glibc.malloc.hugetlb=1' \
		"$out/trace"; then ok; else
		bad "the restart does not keep the tunables already set"; fi
	n=$(IBFSIM_HUGEPAGES=0 starts "$IBFSIM" run "$ex" --quiet)
	[ "$n" = 1 ] && ok || bad "IBFSIM_HUGEPAGES=0: $n starts, want 1"
	n=$(IBFSIM_HUGEPAGES=restarted starts "$IBFSIM" run "$ex" --quiet)
	[ "$n" = 1 ] && ok || bad "restarted: $n starts, want 1"
else
	echo "strace missing or not allowed: start counts not checked"
fi

echo "hugepages: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
