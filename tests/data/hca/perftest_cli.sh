#!/bin/sh
# SPDX-License-Identifier: MIT
# `ibfsim perftest` from the command line: perftest's columns, the
# connectx-4-edr figures within 10% of the published ones
# (docs/fidelity.md, "Reference figures": ib_send_lat 32 B 0.82 us and UD
# 0.86 us from Potter, MSc thesis RWTH 2018; ib_write_bw 64 KiB 93.8 Gb/s
# from perftest GitHub issue 225), -a's sweep of sizes 2 B to 8 MiB,
# --fabric, and exit status 2 with a message on bad usage or input.
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

# perftest's -b, -q, -t, -I and -m, short and long (--qp 4, --qp=4).
uni=$("$IBFSIM" perftest write_bw -n 500 --profile ideal | awk '$1 == 65536 { print $4 }')
bi=$("$IBFSIM" perftest write_bw -n 500 --profile ideal -b | awk '$1 == 65536 { print $4 }')
in_range "$bi" "$(awk -v u="$uni" 'BEGIN { print 1.99 * u }')" \
	"$(awk -v u="$uni" 'BEGIN { print 2 * u }')" ||
	bad "-b: $bi Gb/s is not the two directions' sum (one: $uni)"
"$IBFSIM" perftest write_bw -b -q 2 -n 10 | head -1 |
	grep -q '^# ibfsim perftest write_bw (bidirectional, 2 QPs), ' ||
	bad "-b -q 2: the header does not say so"
a=$("$IBFSIM" perftest write_bw -s 2 -n 500 --qp=4 | awk '$1 == 2 { print $5 }')
b=$("$IBFSIM" perftest write_bw --size 2 --iters=500 -q 4 | awk '$1 == 2 { print $5 }')
[ -n "$a" ] && [ "$a" = "$b" ] || bad "--qp=4 '$a' and -q 4 '$b' differ"
in_range "$a" 10.3 10.5 || bad "-q 4: $a M messages/s, not 4 / 385 ns"
a=$("$IBFSIM" perftest send_lat -s 200 -n 100 | awk '$1 == 200 { print $5 }')
b=$("$IBFSIM" perftest send_lat -s 200 -n 100 -I 0 | awk '$1 == 200 { print $5 }')
in_range "$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')" 0.40 0.42 ||
	bad "-I 0: send_lat 200 B $b us against $a inline"
mtu2k=$(mktemp) || exit 99
trap 'rm -f "$tmp" "$mtu2k"' EXIT
sed 's/cable="2m"/cable="2m" mtu="2048"/' "$p2" >"$mtu2k"
err=$("$IBFSIM" perftest write_bw -n 10 -i 2 -m 4096 --fabric "$mtu2k" 2>&1 >"$tmp") ||
	bad "-m 4096 on a 2048 port exited $?"
echo "$err" | grep -q "MTU 4096 is above the port's 2048: using 2048" ||
	bad "-m above the port's: '$err'"
grep -q '^ 65536 ' "$tmp" || bad "-m 4096 on a 2048 port: no result"

for args in "bogus" "send_lat -s" "send_lat -n 0" "send_lat --profile nope" \
	"send_lat --speed QQQ" "send_lat -x" "send_lat --fabric /nonexistent.xml" \
	"send_lat -c XX" "read_lat -c UD" "atomic_lat -c UC" \
	"send_lat -c UD -s 4097" "send_lat -i 0" "send_lat -i x" \
	"send_lat -q 2" "send_lat -b" "write_lat -t 4" "read_bw -I 0" \
	"write_bw -m 768" "write_bw -m 8192" "write_bw --mtu=" "write_bw -q 0" \
	"write_bw -t 15001" "write_bw -I 300" "send_bw -c UD -s 2048 -m 1024" \
	"write_bw --qp" "write_bw --bidirectional=1"; do
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
