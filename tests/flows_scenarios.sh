#!/bin/sh
# SPDX-License-Identifier: MIT
# Flow workloads (<pattern kind="flows">) as a user runs them, under ib and
# roce (the arrivals' offered load and the CDFs' closed forms are
# check_flows'):
# - examples/websearch_k8.xml (web search at 50% load for 1 ms on the k=8
#   fat tree): the same seed gives a byte-identical fct.csv, another seed
#   other flows; every flow that started finished; the JSON's "fct" has
#   the slowdown's p50, p95, p99 and the four by_size buckets, for both
#   models; no slowdown is below 1 (the ideal is a lower bound); fct.csv
#   has a line a started flow;
# - a lone flow's slowdown is 1: flows rare enough to run alone
#   (tests/data/flows/lone_*.xml, seed 1), each completing in exactly its
#   closed form (src/scenario/fct_ideal.c). 64 KiB at a 4,096-byte MTU
#   is 16 packets; at EDR 4x
#   (100 Gb/s, 80 ps a byte), 2 m cables (10 ns):
#     ib: First 4,138 B (LRH 8, BTH 12, RETH 16, 4,096, ICRC 4, VCRC 2)
#     + 15 x 4,122 = 65,968 B = 5,277,440 ps; the ACK 30 B = 2,400 ps;
#     each switch forwards after the LRH (8 B = 640 ps) and its 100 ns;
#     the destination's flow-control packet (6 B = 480 ps) goes before
#     its ACK. One switch (skeleton.xml):
#       5,277,440 + 2 x 10,000 + 100,640 = 5,398,080 (the last tail in)
#       + 480 + 2,400 + 2 x 10,000 + 100,640 = 5,521,600 ps;
#     three switches (leaf, spine, leaf of fat-tree-k8-l2.xml):
#       5,277,440 + 4 x 10,000 + 3 x 100,640 + 480 + 2,400 + 4 x 10,000
#       + 3 x 100,640 = 5,964,160 ps;
#     roce: First 4,194 B (preamble 8, Ethernet 14, IPv4 20, UDP 8, BTH
#     12, RETH 16, 4,096, ICRC 4, FCS 4, gap 12) + 15 x 4,178 = 66,864 B
#     = 5,349,120 ps; the ACK 86 B = 6,880 ps; a switch forwards after 54
#     header bytes (4,320 ps, IBFS_ETH_CUT_HDR) and its latency, the
#     skeleton's 100 ns or generic-100g's 400 ns on the fat tree; no
#     flow-control packet. One switch:
#       5,349,120 + 20,000 + 104,320 + 6,880 + 20,000 + 104,320
#       = 5,604,640 ps;
#     three: 5,349,120 + 40,000 + 3 x 404,320 + 6,880 + 40,000
#       + 3 x 404,320 = 7,861,920 ps;
#   on the skeleton with the connectx-4-edr profile (doorbell 200 ns,
#   dma_read 390 ns, tx_pkt and rx_pkt 120 ns, dma_write 300 ns, cqe
#   65 ns, PCIe 93.8 Gb/s: a 4,096-byte read takes 349,340 ps, more than
#   a packet's 329,760 on the wire, so PCIe sets the pace): packet i is
#   ready at 1,059,340 + i x 349,340 ps (doorbell + dma_read + its read +
#   tx_pkt) and the last (i = 15) ends at 1,059,340 + 15 x 349,340 +
#   329,760 = 6,629,200 ps (ib; roce 6,633,680 with its 4,178-byte
#   frame); then the hops as above, rx_pkt at both ends, and the CQE's
#   64-byte PCIe write (5,459 ps) + 300 ns + 65 ns:
#     ib: 6,629,200 + 120,640 + 120,000 + 480 + 2,400 + 120,640
#       + 120,000 + 5,459 + 300,000 + 65,000 = 7,483,819 ps;
#     roce: 6,633,680 + 124,320 + 120,000 + 6,880 + 124,320 + 120,000
#       + 5,459 + 300,000 + 65,000 = 7,499,659 ps;
#   the skeleton's switch store-and-forward: it holds a packet whole
#   before its 100 ns instead of its 8-byte (ib) or 54-byte (roce)
#   header; when the link sets the pace the packets queue behind the
#   first, which it holds (ib 4,138 B = 331,040 ps, roce 4,194 B =
#   335,520), under PCIe's pace the last, which comes alone (ib 4,122 B
#   = 329,760, roce 4,178 B = 334,240), and the ACK (ib 2,400, roce
#   6,880):
#     ib ideal: 5,521,600 + 331,040 - 640 + 2,400 - 640 = 5,853,760 ps;
#     roce ideal: 5,604,640 + 335,520 - 4,320 + 6,880 - 4,320
#       = 5,938,400 ps;
#     ib connectx-4-edr: 7,483,819 + 329,760 - 640 + 2,400 - 640
#       = 7,814,699 ps;
#     roce connectx-4-edr: 7,499,659 + 334,240 - 4,320 + 6,880 - 4,320
#       = 7,832,139 ps;
#   1,000,000 bytes on the skeleton (244 packets of 4,096 and one of
#   576): ib First 4,138 + 243 x 4,122 + Last 602 = 1,006,386 B =
#   80,510,880 ps, + 120,640 + 480 + 123,040 = 80,755,040 ps, and the
#   sender takes in 15 ACKs in the middle (every 16 packets) while it
#   sends, each a flow-control packet of 480 ps between two of its data
#   packets: 80,762,240 ps; roce 4,194 + 243 x 4,178 + 658 = 1,020,106
#   B = 81,608,480 ps + 124,320 + 6,880 + 124,320 = 81,864,000 ps;
# - a run cut by --until: started = finished + unfinished, the unfinished
#   listed in fct.csv with no FCT;
# - a bad CDF file refused with its FILE:LINE and exit 2, as is every bad
#   attribute of kind="flows" with the scenario's FILE:LINE.
# Needs python3 to read the JSON (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
top=$(cd "$top_srcdir" && pwd)
ex="$top/examples"
data="$top/tests/data/flows"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# run NAME FILE [ARGS...]: runs FILE into NAME.json and NAME/ (CSV).
run() {
	name=$1 file=$2
	shift 2
	if "$IBFSIM" run "$file" --quiet --json "$out/$name.json" \
		--csv "$out/$name" "$@" >"$out/$name.txt" 2>&1; then
		ok
	else
		bad "$name: exit $?: $(cat "$out/$name.txt")"
	fi
}
# check NAME PYTHON-EXPR: the expression over the JSON (j) and fct.csv's
# rows (rows, a dict a line) is true.
check() {
	if python3 -c "import csv,json,sys; j=json.load(open(sys.argv[1]))
rows=list(csv.DictReader(open(sys.argv[2])))
sys.exit(0 if ($2) else 1)" "$out/$1.json" "$out/$1/fct.csv" \
		2>"$out/py.err"; then
		ok
	else
		bad "$1: not ($2) $(cat "$out/py.err")"
	fi
}

# Same seed, same flows; another seed, others.
for m in ib roce; do
	run ws_$m "$ex/websearch_k8.xml" --model $m
	run ws_${m}_again "$ex/websearch_k8.xml" --model $m
	if cmp -s "$out/ws_$m/fct.csv" "$out/ws_${m}_again/fct.csv"; then
		ok
	else
		bad "$m: seed 1 twice gave two fct.csv"
	fi
	check ws_$m "j['fct']['flows']['started'] > 50 and \
j['fct']['flows']['started'] == j['fct']['flows']['finished'] and \
j['fct']['flows']['unfinished'] == 0 and \
len(rows) == j['fct']['flows']['started']"
	check ws_$m "all(j['fct']['fct_slowdown'][p] >= 1 for p in \
('p50', 'p95', 'p99')) and j['fct']['fct_slowdown']['p50'] <= \
j['fct']['fct_slowdown']['p95'] <= j['fct']['fct_slowdown']['p99']"
	check ws_$m "[b['bucket'] for b in \
j['fct']['fct_slowdown']['by_size']] == \
['<100KB', '100KB-1MB', '1MB-10MB', '>10MB'] and \
sum(b['flows'] for b in j['fct']['fct_slowdown']['by_size']) == \
j['fct']['flows']['finished']"
	check ws_$m "min(float(r['slowdown']) for r in rows) >= 1.0 and \
all(int(r['size']) >= 1 and r['src'] != r['dst'] for r in rows)"
done
run ws_seed2 "$ex/websearch_k8.xml" --seed 2
if cmp -s "$out/ws_ib/fct.csv" "$out/ws_seed2/fct.csv"; then
	bad "seeds 1 and 2 gave the same flows"
else
	ok
fi
grep -q "each flow: fct.csv" "$out/ws_ib.txt" && ok ||
	bad "the text does not name fct.csv"

# Lone flows: slowdown 1, to the picosecond of the closed forms above.
lone() {
	name=$1 file=$2 model=$3 ps=$4
	run "$name" "$data/$file" --model "$model"
	check "$name" "len(rows) > 3 and all(r['fct_ns'] == r['ideal_ns'] == \
'$ps' and r['slowdown'] == '1.000000' and r['size'] == '65536' \
for r in rows) and j['fct']['fct_slowdown']['p99'] == 1.0"
}
lone lone_ib lone_skeleton.xml ib 5521.600
lone lone_roce lone_skeleton.xml roce 5604.640
lone lone_k8_ib lone_k8.xml ib 5964.160
lone lone_k8_roce lone_k8.xml roce 7861.920
lone_cx() {
	name=$1 model=$2 ps=$3
	run "$name" "$data/lone_skeleton.xml" --model "$model" \
		--profile connectx-4-edr
	check "$name" "len(rows) > 3 and all(r['fct_ns'] == r['ideal_ns'] == \
'$ps' and r['slowdown'] == '1.000000' for r in rows)"
}
lone_cx lone_cx_ib ib 7483.819
lone_cx lone_cx_roce roce 7499.659
# Store-and-forward.
sed 's|ports="2" latency="100ns"/>|ports="2" latency="100ns" \
store-and-forward="true"/>|' "$top/platforms/skeleton.xml" >"$out/sf.xml"
sed -e "s|\.\./\.\./\.\./platforms/skeleton.xml|$out/sf.xml|" \
	-e "s|fixed64k.cdf|$data/fixed64k.cdf|" \
	"$data/lone_skeleton.xml" >"$out/lone_sf.xml"
for c in ib:ideal:5853.760 roce:ideal:5938.400 \
	ib:connectx-4-edr:7814.699 roce:connectx-4-edr:7832.139; do
	m=${c%%:*} p=${c#*:}
	ps=${p#*:} p=${p%%:*}
	run "sf_${m}_$p" "$out/lone_sf.xml" --model "$m" --profile "$p"
	check "sf_${m}_$p" "len(rows) > 3 and all(r['fct_ns'] == \
r['ideal_ns'] == '$ps' and r['slowdown'] == '1.000000' for r in rows)"
done
# 1,000,000-byte flows at load 0.16 (one every 500 us on average, each
# 81 us long): with seed 1 each runs alone.
printf '1000000 1\n' >"$out/1m.cdf"
sed -e "s|fixed64k.cdf|$out/1m.cdf|" -e 's|load="0.01"|load="0.16"|' \
	-e "s|\.\./\.\./\.\./platforms|$top/platforms|" \
	"$data/lone_skeleton.xml" >"$out/lone1m.xml"
for m in ib:80762.240 roce:81864.000; do
	run "lone1m_${m%%:*}" "$out/lone1m.xml" --model "${m%%:*}"
	check "lone1m_${m%%:*}" "len(rows) > 3 and all(r['fct_ns'] == \
r['ideal_ns'] == '${m#*:}' and r['slowdown'] == '1.000000' for r in rows)"
done

# Cut short: under roce the fabric is up at 0, so --until 500us ends the
# run 500 us into the arrivals.
run until "$ex/websearch_k8.xml" --model roce --until 500us
check until "j['fct']['flows']['unfinished'] > 0 and \
j['fct']['flows']['started'] == j['fct']['flows']['finished'] + \
j['fct']['flows']['unfinished'] and len(rows) == \
j['fct']['flows']['started'] and sum(1 for r in rows if r['fct_ns'] == '' \
and r['slowdown'] == '') == j['fct']['flows']['unfinished'] and \
all(float(r['start_ns']) < 500000 for r in rows)"

# refused NAME WANT: scenario $out/NAME.xml exits 2 saying WANT.
refused() {
	"$IBFSIM" run "$out/$1.xml" >"$out/r.txt" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$2" "$out/r.txt"; then
		ok
	else
		bad "$1: exit $rc, not 2 with '$2': $(cat "$out/r.txt")"
	fi
}
# scenario NAME PATTERN-ATTRIBUTES: a skeleton scenario, the pattern at
# line 5.
scenario() {
	cat >"$out/$1.xml" <<XML
<?xml version="1.0"?>
<scenario version="1" name="$1">
  <fabric file="$top/platforms/skeleton.xml"/>
  <traffic>
    <pattern $2/>
  </traffic>
</scenario>
XML
}
# A CDF whose sizes go back at its line 3.
printf '# sizes\n100 0.1\n50 0.2\n1000 1\n' >"$out/order.cdf"
printf '100 0.5\n200 0.8\n' >"$out/short.cdf"
printf '100 1.2\n' >"$out/prob.cdf"
scenario cdf_order 'kind="flows" sizes="order.cdf" load="0.5" duration="1ms"'
refused cdf_order "$out/order.cdf:3: not monotonic: size 50 is not above \
the 100 of line 2"
scenario cdf_short 'kind="flows" sizes="short.cdf" load="0.5" duration="1ms"'
refused cdf_short "$out/short.cdf:2: the last point's probability is 0.8; \
a CDF ends at 1"
scenario cdf_prob 'kind="flows" sizes="prob.cdf" load="0.5" duration="1ms"'
refused cdf_prob "$out/prob.cdf:1: probability 1.2 is outside [0, 1]"
scenario cdf_none 'kind="flows" sizes="none.cdf" load="0.5" duration="1ms"'
refused cdf_none "$out/none.cdf: cannot open the flow-size CDF"
f='kind="flows" sizes="websearch"'
scenario no_load "$f duration=\"1ms\""
refused no_load "$out/no_load.xml:5: kind=\"flows\" needs load="
scenario no_dur "$f load=\"0.5\""
refused no_dur "$out/no_dur.xml:5: kind=\"flows\" needs duration="
scenario no_sizes 'kind="flows" load="0.5" duration="1ms"'
refused no_sizes "$out/no_sizes.xml:5: kind=\"flows\" needs sizes="
for l in 1.5 0 -0.2 abc 150%; do
	scenario load "$f load=\"$l\" duration=\"1ms\""
	refused load "$out/load.xml:5: load=\"$l\": a fraction of the link's \
data rate above 0 and at most 1"
done
scenario dur0 "$f load=\"0.5\" duration=\"0s\""
refused dur0 "$out/dur0.xml:5: duration must be above 0"
scenario place "$f load=\"0.5\" duration=\"1ms\" placement=\"ring\""
refused place "$out/place.xml:5: placement=\"ring\" is not one of: \
all-to-all, incast"
scenario incast "$f load=\"0.5\" duration=\"1ms\" placement=\"incast\""
refused incast "$out/incast.xml:5: placement=\"incast\" needs dst"
scenario dst "$f load=\"0.5\" duration=\"1ms\" dst=\"node2\""
refused dst "$out/dst.xml:5: dst applies only to placement=\"incast\""
scenario size "$f load=\"0.5\" duration=\"1ms\" size=\"4KiB\""
refused size "$out/size.xml:5: size does not apply to kind=\"flows\""
scenario uc "$f load=\"0.5\" duration=\"1ms\" qp=\"uc\""
refused uc "$out/uc.xml:5: qp=\"uc\": a flow runs on qp=\"rc\""
scenario perm 'kind="permutation" size="4KiB" sizes="websearch"'
refused perm "$out/perm.xml:5: sizes applies only to kind=\"flows\""

echo "flows_scenarios: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
