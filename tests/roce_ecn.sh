#!/bin/sh
# SPDX-License-Identifier: MIT
# ECN marking at the switches under roce, as a user runs it
# (examples/roce_ecn.xml: the 7:1 incast with DCQCN's Kmin 5 KB, Kmax
# 200 KB, Pmax 1%, marked at dequeue); the curve and the draws are
# check_eth_ecn's:
# - the queues toward node1 pass Kmax: frames are marked (ecn.marked > 0),
#   ports.csv's ecn_marks and ecn.csv's rows sum to it, and the text says
#   it; the same seed gives the same marks port by port and priority by
#   priority (the draws are the run's seed's), run after run;
# - mark="enqueue" marks too; priorities that the traffic (priority 0)
#   does not use mark nothing; without <ecn> nothing is marked (ecn.marked
#   0, the example's timing unchanged: no control reacts to the marks);
# - under ib the <ecn> is ignored and the text says so with its line;
# - each bad value is refused with FILE:LINE and exit 2.
# Needs python3 to read the JSON (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=$(pwd)}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
ex="$top_srcdir/examples"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# run NAME FILE [ARGS...]: FILE into NAME.json, NAME.txt and csv-NAME/.
run() {
	name=$1 file=$2
	shift 2
	if "$IBFSIM" run "$file" --json "$out/$name.json" \
		--csv "$out/csv-$name" "$@" >"$out/$name.txt" 2>&1; then
		ok
	else
		bad "$name: exit $?: $(cat "$out/$name.txt")"
	fi
}
# check NAME PYTHON-EXPR: the expression over the JSON (j) is true; rows(F)
# reads csv-NAME/F.
check() {
	if python3 -c "import csv, json, sys; j=json.load(open(sys.argv[1]))
rows = lambda f: list(csv.DictReader(open(sys.argv[2] + '/' + f)))
sys.exit(0 if ($2) else 1)" "$out/$1.json" "$out/csv-$1" 2>"$out/py.err"
	then
		ok
	else
		bad "$1: not ($2) $(cat "$out/py.err")"
	fi
}
# edit DST SED: examples/roce_ecn.xml edited by SED, the fabric found.
edit() {
	sed -e "$2" -e "s|\.\./platforms|$top_srcdir/platforms|" \
		"$ex/roce_ecn.xml" >"$out/$1"
}

run a "$ex/roce_ecn.xml" --seed 5
check a "j['ecn']['marked'] > 0 and j['messages']['completed'] == 7"
check a "sum(int(r['ecn_marks']) for r in rows('ports.csv')) == \
j['ecn']['marked'] and sum(int(r['ecn_marks']) for r in rows('ecn.csv')) \
== j['ecn']['marked']"
grep -q "^ecn: [1-9][0-9]* frames marked CE (kmin 5000 B, kmax 200000 B, \
pmax 0.01, at dequeue)$" "$out/a.txt" && ok || bad "text: $(cat "$out/a.txt")"
run b "$ex/roce_ecn.xml" --seed 5
cmp -s "$out/csv-a/ecn.csv" "$out/csv-b/ecn.csv" && ok ||
	bad "seed 5 twice: ecn.csv differs"
cmp -s "$out/csv-a/ports.csv" "$out/csv-b/ports.csv" && ok ||
	bad "seed 5 twice: ports.csv differs"

edit enq.xml 's/mark="dequeue"/mark="enqueue"/'
run enq "$out/enq.xml"
check enq "j['ecn']['marked'] > 0"
edit p34.xml 's/mark="dequeue"/priorities="3,4"/'
run p34 "$out/p34.xml"
check p34 "j['ecn']['marked'] == 0 and \
all(int(r['ecn_marks']) == 0 for r in rows('ports.csv'))"
run none "$ex/roce_incast.xml"
check none "j['ecn']['marked'] == 0"
run a1 "$ex/roce_ecn.xml"
python3 -c "import json, sys
a, b = (json.load(open(f))['messages']['latency_ns'] for f in sys.argv[1:])
sys.exit(a != b)" "$out/a1.json" "$out/none.json" && ok ||
	bad "the marks changed the incast's timing"

run ib "$ex/roce_ecn.xml" --model ib
grep -q "^ignored under ib (Ethernet only): <ecn> at line 15$" \
	"$out/ib.txt" && ok || bad "ib: $(cat "$out/ib.txt")"
check ib "'ecn' not in j"

# refused SED MESSAGE: the edited example exits 2 with FILE:LINE: MESSAGE.
refused() {
	edit bad.xml "$1"
	"$IBFSIM" run "$out/bad.xml" >"$out/r.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF "$out/bad.xml:$3: $2" "$out/r.txt"
	then ok; else bad "$1: exit $rc: $(cat "$out/r.txt")"; fi
}
refused 's/kmin="5KB"/kmin="300KB"/' \
	"<ecn> kmin (300000 bytes) is above kmax (200000 bytes)" 15
refused 's/kmin="5KB"/kmin="5000"/' 'kmin="5000": a size needs a unit' 15
refused 's/kmax="200KB"/kmax="x"/' 'kmax="x": a size must be' 15
refused 's/pmax="0.01"/pmax="1.5"/' '<ecn> pmax="1.5": a decimal from 0 to 1' 15
refused 's/pmax="0.01"/pmax="-1"/' '<ecn> pmax="-1": a decimal from 0 to 1' 15
refused 's/pmax="0.01"/pmax="1%"/' '<ecn> pmax="1%": a decimal from 0 to 1' 15
refused 's/pmax="0.01"/pmax="0.0000000001"/' \
	'<ecn> pmax="0.0000000001": a decimal from 0 to 1 (at most 9' 15
refused 's/mark="dequeue"/mark="late"/' \
	'mark="late" is not one of: dequeue, enqueue' 15
refused 's/mark="dequeue"/priorities="8"/' \
	'<ecn> priorities="8": priorities 0 to 7 separated by commas' 15
refused 's/mark="dequeue"/priorities="3;4"/' \
	'<ecn> priorities="3;4": priorities 0 to 7 separated by commas' 15
refused 's/ kmax="200KB"//' "<ecn> needs a 'kmax' attribute" 15
refused 's/mark="dequeue"/depth="1"/' "<ecn> has no attribute 'depth'" 15
refused 's|\(<ecn [^>]*>\)|\1<ecn kmin="1KB" kmax="2KB" pmax="0"/>|' \
	"a second <ecn> (the first is at line 15): <transport> has one" 15
refused 's|<traffic>|<traffic><ecn kmin="1KB" kmax="2KB" pmax="0"/>|' \
	"unknown element <ecn> in <traffic>" 17

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
