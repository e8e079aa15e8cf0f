#!/bin/sh
# SPDX-License-Identifier: MIT
# `ibfsim perftest` from the command line: perftest's columns, the
# connectx-4-edr figures within 10% of the published ones (DESIGN.md:
# ib_send_lat 32 B 0.82 us, UD 0.86 us, ib_write_bw 64 KiB 93.8 Gb/s),
# -a's sweep of
# sizes 2 B to 8 MiB, --fabric, and exit status 2 with a message on bad
# usage or input.
set -u
fail=0
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
# in_range V LO HI: V is a number from LO to HI.
in_range() {
	awk -v v="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'
}

out=$("$IBFSIM" perftest send_lat -s 32 -n 200) || bad "send_lat exited $?"
echo "$out"
echo "$out" | grep -q '^ #bytes #iterations    t_min\[usec\]    t_max\[usec\]  t_typical\[usec\]    t_avg\[usec\]' ||
	bad "send_lat columns"
v=$(echo "$out" | awk '$1 == 32 && $2 == 200 { print $5 }')
in_range "$v" 0.738 0.902 ||
	bad "send_lat 32 B t_typical '$v' not within 10% of 0.82"

out=$("$IBFSIM" perftest send_lat -c UD -s 32 -n 200) || bad "UD send_lat exited $?"
v=$(echo "$out" | awk '$1 == 32 && $2 == 200 { print $5 }')
in_range "$v" 0.774 0.946 ||
	bad "UD send_lat 32 B t_typical '$v' not within 10% of 0.86"

out=$("$IBFSIM" perftest write_bw -n 1000) || bad "write_bw exited $?"
echo "$out"
echo "$out" | grep -q '^ #bytes     #iterations    BW peak\[Gb/sec\]    BW average\[Gb/sec\]   MsgRate\[Mpps\]' ||
	bad "write_bw columns"
v=$(echo "$out" | awk '$1 == 65536 && $2 == 1000 { print $4 }')
in_range "$v" 84.42 103.18 ||
	bad "write_bw 64 KiB average '$v' not within 10% of 93.8"

n=$("$IBFSIM" perftest write_lat -a -n 3 --profile ideal | awk '$2 == 3' | wc -l)
[ "$n" -eq 23 ] || bad "-a printed $n sizes, not 23 (2 B to 8 MiB)"
first=$("$IBFSIM" perftest write_lat -a -n 3 --profile ideal | awk '$2 == 3 { print $1; exit }')
[ "$first" = 2 ] || bad "-a starts at '$first', not 2"

"$IBFSIM" perftest read_lat -n 10 --fabric "$top_srcdir/platforms/star.xml" >"$tmp" ||
	bad "--fabric star.xml exited $?"
# The header names the profile the HCAs run: the file's (star.xml names
# none: ideal), or --profile's.
head -1 "$tmp" | grep -q ', client [^ ]*, server [^ ]*, profile ideal$' ||
	bad "--fabric header: $(head -1 "$tmp")"
"$IBFSIM" perftest read_lat -n 10 --fabric "$top_srcdir/platforms/star.xml" \
	--profile connectx-6-hdr | head -1 | grep -q ', profile connectx-6-hdr$' ||
	bad "--fabric --profile: the header does not name connectx-6-hdr"

# -i PORT (perftest's --ib-port): HCAs linked on their port 2 only run
# there; on port 1, or port 2 of the back-to-back pair, the port is not
# active (exit 2, before any output).
p2="$top_srcdir/tests/data/hca/port2_fabric.xml"
"$IBFSIM" perftest write_lat -n 10 --fabric "$p2" -i 2 >"$tmp" ||
	bad "-i 2 on port2_fabric.xml exited $?"
grep -q '^ 2  *10  ' "$tmp" || bad "-i 2: no result line: $(cat "$tmp")"
err=$("$IBFSIM" perftest write_lat -n 10 --fabric "$p2" 2>&1 >"$tmp")
[ $? -eq 2 ] && [ ! -s "$tmp" ] ||
	bad "port 1 of port2_fabric.xml: exit not 2 or output printed"
echo "$err" | grep -q "port 1 of a is not active" || bad "port 1: '$err'"
err=$("$IBFSIM" perftest send_lat -n 10 -i 2 2>&1 >/dev/null)
echo "$err" | grep -q "port 2 of hca0 is not active" || bad "-i 2: '$err'"

for args in "bogus" "send_lat -s" "send_lat -n 0" "send_lat --profile nope" \
	"send_lat --speed QQQ" "send_lat -x" "send_lat --fabric /nonexistent.xml" \
	"send_lat -c XX" "read_lat -c UD" "atomic_lat -c UC" \
	"send_lat -c UD -s 4097" "send_lat -i 0" "send_lat -i x"; do
	err=$("$IBFSIM" perftest $args 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] || bad "'perftest $args' exited $rc, not 2"
	echo "$err" | grep -q '^ibfsim: ' || bad "'perftest $args' said '$err'"
done
"$IBFSIM" perftest --help | grep -q "^Usage: ibfsim perftest" || bad "--help"

# perftest's program names name the same tests: the same figures.
a=$("$IBFSIM" perftest write_bw -s 4096 -n 100 | sed 1d)
b=$("$IBFSIM" perftest ib_write_bw -s 4096 -n 100 | sed 1d)
[ -n "$a" ] && [ "$a" = "$b" ] || bad "ib_write_bw is not write_bw: '$b'"
err=$("$IBFSIM" perftest ib_ 2>&1 >/dev/null)
[ $? -eq 2 ] || bad "'perftest ib_' was taken for a test"
exit $fail
