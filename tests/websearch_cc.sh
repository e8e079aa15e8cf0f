#!/bin/sh
# SPDX-License-Identifier: MIT
# The web search workload at 50% load on a k=8 fat tree under each RoCEv2
# congestion control (examples/websearch_k8_cc.xml with --cc none, dcqcn,
# hpcc, timely), the schemes compared on the same flows:
# - every scheme reports the FCT slowdown p50, p95 and p99 (none below 1,
#   p50 <= p95 <= p99) overall and by size, for the same 111 flows, all
#   finished;
# - DCQCN's CNPs follow the switches' CE marks (marks > 0, CNPs > 0, as
#   many received as sent); HPCC and TIMELY send no CNP;
# - one seed, the same results: fct.csv byte for byte for each scheme
#   run twice; another seed, other flows;
# - the CC-only mode (PFC off): DCQCN alone on lossy Ethernet completes
#   every flow and drops fewer packets than no control, which drops and
#   recovers by go-back-N (on seed 1: 0 against 4,599).
# - docs/comparing.md shows each scheme's FCT slowdown line as run here.
# Needs python3 (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
ws="$top_srcdir/examples/websearch_k8_cc.xml"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# run NAME ARGS...: the scenario into NAME.json and NAME/ (CSV).
run() {
	n=$1
	shift
	"$IBFSIM" run "$ws" --quiet --json "$out/$n.json" --csv "$out/$n" \
		"$@" >"$out/$n.txt" 2>&1 && ok || bad "$n: $(cat "$out/$n.txt")"
}
check() {
	python3 -c "import json,sys; j=json.load(open(sys.argv[1]))
sys.exit(0 if ($2) else 1)" "$out/$1.json" && ok || bad "$1: not ($2)"
}
for cc in none dcqcn hpcc timely; do
	run $cc --cc $cc
	check $cc "j['fct']['flows'] == {'started': 111, 'finished': 111, \
'unfinished': 0}"
	check $cc "(lambda s: 1 <= s['p50'] <= s['p95'] <= s['p99'] and \
len(s['by_size']) == 4)(j['fct']['fct_slowdown'])"
	run ${cc}_again --cc $cc
	cmp -s "$out/$cc/fct.csv" "$out/${cc}_again/fct.csv" && ok ||
		bad "$cc: the same seed gave other flow times"
done
check dcqcn "j['ecn']['marked'] > 0 and j['cc']['cnp_sent'] > 0 and \
j['cc']['cnp_sent'] == j['cc']['cnp_received']"
for cc in hpcc timely; do
	check $cc "j['cc']['control'] == '$cc' and j['cc']['cnp_sent'] == 0"
done
run seed2 --cc dcqcn --seed 2
cmp -s "$out/dcqcn/fct.csv" "$out/seed2/fct.csv" && bad "seed 2: same flows" ||
	ok
plat=$(cd "$top_srcdir/platforms" && pwd)
sed -e 's/pfc="on"/pfc="off"/' -e "s|\.\./platforms|$plat|" "$ws" \
	>"$out/lossy.xml"
"$IBFSIM" run "$out/lossy.xml" --quiet --json "$out/lossy.json" \
	>"$out/lossy.txt" 2>&1 && ok || bad "lossy: $(cat "$out/lossy.txt")"
check lossy "j['fct']['flows']['finished'] == 111 and \
j['pfc']['pause_frames_sent'] == 0 and j['cc']['control'] == 'dcqcn'"
"$IBFSIM" run "$out/lossy.xml" --quiet --json "$out/lossy_none.json" \
	--cc none >/dev/null 2>&1 || bad "lossy, no control"
check lossy "(lambda n: n['packets']['dropped'] > 0 and \
n['packets']['retransmitted'] > 0 and n['fct']['flows']['finished'] == 111 \
and j['packets']['dropped'] < n['packets']['dropped'])(\
json.load(open(sys.argv[1].replace('lossy.json', 'lossy_none.json'))))"
# docs/comparing.md shows each scheme's line of the table: still true.
for cc in none dcqcn hpcc timely; do
	line=$(printf "%-7s" $cc; grep -A1 "FCT slowdown" "$out/$cc.txt" | tail -1)
	grep -qxF -- "$line" "$top_srcdir/docs/comparing.md" && ok ||
		bad "docs/comparing.md lacks: $line"
done
echo "websearch_cc: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
