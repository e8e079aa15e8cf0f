#!/bin/sh
# SPDX-License-Identifier: MIT
# Scenarios under --model roce, as a user runs them, with what they must
# show asserted (the closed forms of single frames and RoCEv2 packets are
# in check_eth_switch, check_pfc and check_roce_link):
# - examples/roce_incast.xml, a 7:1 incast of 4 MiB writes on lossless
#   Ethernet: every message completes, nothing is dropped, pause frames
#   go (as many received as sent), the packets are conserved, and the
#   link into the target stays busy: 28 MiB in 4,178-byte frames of 4,096
#   payload bytes take at least 28 x 2^20 x 8 x 4178 / 4096 / 100 Gb/s,
#   so the aggregate is within 1% of 100 x 4096 / 4178 = 98.04 Gb/s;
#   ports.csv has each port's pause frames sent and received and paused
#   time per priority, pfc.csv's figures;
# - examples/roce_incast_lossy.xml, the same with PFC off: drops, all of
#   them the switches' tail drops (switch_buffer by cause), no pause
#   frame, and still every message completes (NAK and go-back-N, or the
#   ACK timeout), the packets sent again (retransmitted) exactly those
#   the senders' links carried beyond the writes;
# - examples/roce_incast_irn.xml, the lossy incast under IRN's loss
#   recovery with its BDP cap of 9 packets: every message completes,
#   nothing is dropped or sent again (the senders' links carry exactly
#   the 7 writes, 7 x 4,278,288 bytes: First 4,194 + 1,023 x 4,178), and
#   the slowest message is under 5 ms where go-back-N's waits out the
#   67 ms of its ACK timeouts (4.096 us x 2^14, IBA 9.7.6.1.3); the same
#   pair on the tomahawk profile's smaller pipelines, IRN without its BDP
#   cap: IRN's switches drop, it sends again about what they dropped (at
#   most a quarter more, from its timeouts) and under a quarter of what
#   go-back-N sends again, and still finishes under 5 ms; retransmitted
#   is what the links carried again, for both;
# - examples/fat_tree_permutation.xml under ib (ftree) and roce (ECMP by
#   hash) for seeds 1-3: ECMP's aggregate below ftree's each time; under
#   roce the busiest link direction carries the data of two flows or more
#   (more than 1.5 x the 1 MiB write's 1,069,584 wire bytes: First 4,194
#   + 255 x 4,178), and more flows than ftree's busiest (a random
#   permutation shares some links under ftree's static tables too, but
#   fewer: its busiest direction carries fewer bytes, though IB's frames
#   are smaller);
# - the InfiniBand-only elements refused under roce with exit 2, and the
#   ones left aside named in the results;
# - --model roce on a capture: Ethernet frames tshark dissects as RoCEv2,
#   and the incast's PFC frames as MAC control frames (skipped without
#   tshark).
# - examples/roce_ring_deadlock.xml, clockwise two-hop writes on a ring of
#   five: a PFC deadlock, exit 1, "deadlock": true and the cycle of the
#   five ingress ports 2 (priority 0) in the JSON and the text, nothing
#   dropped, no message completed, the packets conserved, the run's time
#   the monitor's decision (a multiple of its 50 us); with pfc="off" the
#   same traffic is tail-dropped instead and completes, no deadlock.
# - examples/roce_incast_dcqcn.xml, a 16:1 incast with PFC and DCQCN:
#   every message completes, nothing dropped, CNPs sent and received, and
#   the pause time under a tenth of the same run with --cc none (PFC
#   alone); examples/roce_dcqcn_fairness.xml, two flows into one port,
#   the second from 1 ms: between 5 and 20 ms each carries within 10% of
#   half their bytes, and the queue toward node1 stays under Kmax and
#   averages under Kmin; the cc attribute's and <cc>'s refusals,
#   FILE:LINE and exit 2, and --cc's.
# - in every run, the drops by cause sum to dropped.
# Needs python3 to read the JSON (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
ex="$top_srcdir/examples"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
. "$top_srcdir/tests/run_lib.sh"

run incast "$ex/roce_incast.xml"
check incast "j['model'] == 'roce' and j['messages']['completed'] == 7 \
and j['messages']['failed'] == 0"
check incast "j['packets']['dropped'] == 0 and \
j['switch_drops'] == {'tail': 0, 'headroom': 0, 'no_route': 0}"
check incast "j['pfc']['pause_frames_sent'] > 0 and \
j['pfc']['pause_frames_sent'] == j['pfc']['pause_frames_received'] and \
j['pfc']['paused_ns'] > 0"
check incast "j['conservation']['ok']"
check incast "abs(j['throughput_gbps']['aggregate'] - 100 * 4096 / 4178) \
< 0.01 * 100 * 4096 / 4178"
check incast "max(s['buffer_peak_bytes'] for s in j['switches']) > 0"
# pfc.csv, per port and priority, sums to the JSON's totals.
"$IBFSIM" run "$ex/roce_incast.xml" --quiet --csv "$out/csv" >/dev/null 2>&1
check incast "(lambda rows: sum(int(x['pause_frames_sent']) for x in rows) \
== j['pfc']['pause_frames_sent'] and sum(int(x['paused_ps']) for x in rows) \
== round(j['pfc']['paused_ns'] * 1000))(list(__import__('csv').DictReader(\
open('$out/csv/pfc.csv'))))"

# ports.csv under roce: per port and priority the PFC figures of pfc.csv
# (whose rows are those with one not 0), every other one 0.
run incast_csv "$ex/roce_incast.xml" --csv "$out/incast_csv"
if python3 -c "import csv,sys; d=sys.argv[1]
ports=list(csv.DictReader(open(d + '/ports.csv')))
pfc={(r['node'], r['port'], int(r['priority'])): r
     for r in csv.DictReader(open(d + '/pfc.csv'))}
cols=('pause_frames_sent', 'pause_frames_received', 'paused_ps')
n=0
for r in ports:
    for p in range(8):
        q=pfc.get((r['node'], r['port'], p))
        for c in cols:
            want=q[c] if q else '0'
            assert r['%s_p%d' % (c, p)] == want, (r['node'], r['port'], p, c)
            n += int(want)
assert n > 0 and len(ports[0]) == 16 + 24 + 1  # and ecn_marks
" "$out/incast_csv" 2>"$out/py.err"; then ok; else
	bad "incast: ports.csv's PFC columns: $(cat "$out/py.err")"; fi

run lossy "$ex/roce_incast_lossy.xml"
check lossy "j['messages']['completed'] == 7 and j['messages']['failed'] == 0"
check lossy "j['packets']['dropped'] > 0 and \
j['packets']['dropped'] == j['switch_drops']['tail']"
check lossy "j['pfc']['pause_frames_sent'] == 0 and j['conservation']['ok']"
# By cause: all of them switch_buffer, as many as the switches' tail
# drops; the requesters sent packets again.
check lossy "j['packets']['dropped_by_cause']['switch_buffer'] == \
j['switch_drops']['tail'] > 0 and j['packets']['retransmitted'] > 0"

# The packets the senders (every HCA but node1) sent again: the bytes on
# their links beyond the 7 writes, in 4,178-byte frames.
retx() {
	python3 -c "import json; j=json.load(open('$out/$1.json'));
tx=sum(l['tx_bytes_ab'] for l in j['links'] if l['a'].startswith('node') and
l['a'] != 'node1:1'); print(round((tx - 7 * 4278288) / 4178))"
}
run irn "$ex/roce_incast_irn.xml"
check irn "j['messages']['completed'] == 7 and j['messages']['failed'] == 0"
check irn "j['packets']['dropped'] == 0 and j['conservation']['ok']"
[ "$(retx irn)" -eq 0 ] && ok || bad "irn: $(retx irn) packets sent again"
check irn "j['packets']['retransmitted'] == 0"
check irn "j['messages']['latency_ns']['max'] < 5e6"
check lossy "j['messages']['latency_ns']['max'] > 60e6"
[ "$(retx lossy)" -gt "$(python3 -c "import json;
print(json.load(open('$out/lossy.json'))['packets']['dropped'])")" ] && ok ||
	bad "lossy: go-back-N sent again no more than was dropped"
# The count agrees with the links: go-back-N sent again what it rewound
# over (every message completed), each packet a frame on its sender's
# link. (A First packet sent again is 16 bytes longer, its RETH: fewer
# than 130 of them still round to the same count.)
check lossy "j['packets']['retransmitted'] == $(retx lossy)"
# The same on tomahawk (4 MB a pipeline), IRN without irn-rtt.
sed -e 's/ irn-rtt="[^"]*"/ switch-profile="tomahawk"/' \
	-e "s|\.\./platforms|$top_srcdir/platforms|" \
	"$ex/roce_incast_irn.xml" >"$out/irn_th.xml"
sed -e 's/pfc="off"/pfc="off" switch-profile="tomahawk"/' \
	-e "s|\.\./platforms|$top_srcdir/platforms|" \
	"$ex/roce_incast_lossy.xml" >"$out/gbn_th.xml"
run irn_th "$out/irn_th.xml"
run gbn_th "$out/gbn_th.xml"
check irn_th "j['messages']['completed'] == 7 and j['packets']['dropped'] > 0 \
and j['messages']['latency_ns']['max'] < 5e6 and j['conservation']['ok']"
check gbn_th "j['messages']['completed'] == 7 and \
j['messages']['latency_ns']['max'] > 60e6"
r=$(retx irn_th) g=$(retx gbn_th)
check irn_th "$r >= j['packets']['dropped'] * 0.9 and \
$r <= j['packets']['dropped'] * 1.25 and 4 * $r < $g"
# IRN counts each retransmission it builds: the links' count.
check irn_th "j['packets']['retransmitted'] == $r"
check gbn_th "j['packets']['retransmitted'] == $g"

# IRN with PFC on (the paper evaluates both): lossless, nothing to
# recover, every message completes. A value other than gbn or irn, and
# irn-rtt without irn, are refused with exit 2.
sed -e 's/model="roce"/model="roce" loss-recovery="irn"/' \
	-e "s|\.\./platforms|$top_srcdir/platforms|" \
	"$ex/roce_incast.xml" >"$out/irn_pfc.xml"
run irn_pfc "$out/irn_pfc.xml"
check irn_pfc "j['messages']['completed'] == 7 and \
j['packets']['dropped'] == 0 and j['pfc']['pause_frames_sent'] >= 0"
for bad in 'loss-recovery="sr"' 'irn-rtt="3us"'; do
	sed -e "s/model=\"roce\"/model=\"roce\" $bad/" \
		-e "s|\.\./platforms|$top_srcdir/platforms|" \
		"$ex/roce_incast.xml" >"$out/bad.xml"
	"$IBFSIM" run "$out/bad.xml" >"$out/r.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q -e "not one of: gbn, irn" \
		-e "irn-rtt needs loss-recovery" "$out/r.txt"
	then ok; else bad "$bad: exit $rc: $(cat "$out/r.txt")"; fi
done

D=1069584
for seed in 1 2 3; do
	run "ib$seed" "$ex/fat_tree_permutation.xml" --model ib --seed "$seed"
	run "roce$seed" "$ex/fat_tree_permutation.xml" --model roce \
		--seed "$seed"
	ib=$(python3 -c "import json; print(json.load(open('$out/ib$seed.json'))\
['throughput_gbps']['aggregate'])")
	check "roce$seed" "j['throughput_gbps']['aggregate'] < $ib"
	check "roce$seed" "max(max(l['tx_bytes_ab'], l['tx_bytes_ba']) \
for l in j['links']) > 1.5 * $D"
	check "roce$seed" "j['messages']['completed'] == 32"
	ibmax=$(python3 -c "import json; print(max(max(l['tx_bytes_ab'], \
l['tx_bytes_ba']) for l in json.load(open('$out/ib$seed.json'))['links']))")
	check "roce$seed" "max(max(l['tx_bytes_ab'], l['tx_bytes_ba']) \
for l in j['links']) > $ibmax * 4178 / 4122 + $D / 2"
done

# Refused and ignored.
for x in multicast incast_cc partitions; do
	"$IBFSIM" run "$ex/$x.xml" --model roce >"$out/r.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "not modelled under roce" "$out/r.txt"
	then ok; else bad "$x under roce: exit $rc: $(cat "$out/r.txt")"; fi
done
run lash "$ex/dragonfly_lash.xml" --model roce
check lash "'routing engine' in j.get('ignored', '') and \
j['routing'] == 'ecmp'"

if command -v tshark >/dev/null 2>&1; then
	"$IBFSIM" run "$ex/roce_incast.xml" --quiet --pcap "$out/i.pcap" \
		>/dev/null 2>&1 || bad "capture run failed"
	n=$(tshark -r "$out/i.pcap" -Y 'udp.dstport == 4791 &&
		infiniband.bth.opcode' 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] && ok || bad "no RoCEv2 frame dissected"
	n=$(tshark -r "$out/i.pcap" -Y 'macc.opcode == 0x0101' 2>/dev/null |
		wc -l)
	[ "$n" -gt 0 ] && ok || bad "no PFC frame dissected"
else
	echo "tshark missing: the capture's dissection not checked"
fi

# The fabric's switch settings under roce (<switch> latency, shared-buffer
# and alpha over the switch profile's, generic-100g: 400 ns, 12 MiB,
# alpha 1), on copies of the platforms made here.
# fabric SRC DST SED: DST in $out is SRC under platforms/ edited by SED.
fabric() {
	sed "$3" "$top_srcdir/platforms/$1" >"$out/$2"
}
# scenario SRC DST FABRIC: examples/SRC with its fabric replaced.
scenario() {
	sed "s#<fabric file=\"[^\"]*\"/>#<fabric file=\"$out/$3\"/>#" \
		"$ex/$1" >"$out/$2"
}
sim_ps() {
	python3 -c "import json; print(json.load(open('$out/$1.json'))\
['sim_time_ps'])"
}
# Latency: examples/rdma_write.xml (64 KiB, node1 -> sw1 -> node2 on
# platforms/skeleton.xml) under roce. The one flow meets no contention,
# so the switch is a pure delay: the last WRITE packet crosses sw1 once
# and its ACK once more on the way back, and the completion moves by
# 2 x the change of latency, to the picosecond. Without latency in the
# file the profile's 400 ns holds (t0); latency="1us" on sw1 gives
# t0 + 2 x (1,000,000 - 400,000) = t0 + 1,200,000 ps; the skeleton as it
# is (100 ns in <defaults> and on sw1) t0 - 2 x 300,000 = t0 - 600,000 ps.
fabric skeleton.xml sk400.xml 's/ latency="100ns"//g'
fabric skeleton.xml sk1us.xml \
	's/2" latency="100ns"/2" latency="1us"/; s/ latency="100ns"//'
fabric skeleton.xml sk100.xml ''
for v in 400 1us 100; do
	scenario rdma_write.xml "w$v.xml" "sk$v.xml"
	run "w$v" "$out/w$v.xml" --model roce
done
t0=$(sim_ps w400)
check w1us "j['sim_time_ps'] == $t0 + 1200000"
check w100 "j['sim_time_ps'] == $t0 - 600000"
# store-and-forward="true" on sw1: a frame leaves once its tail is in,
# not its first 54 bytes (preamble to UDP). The last data frame (4,178
# bytes on the wire) waits 4,124 bytes more at 80 ps a byte; the frames
# before it queue behind the first, 16 bytes (its RETH) longer than the
# others, so the last starts 16 bytes later still; the 86-byte ACK waits
# 32 bytes more: (4,124 + 16 + 32) x 80 = 333,760 ps over cut-through.
fabric skeleton.xml sksf.xml \
	's/2" latency="100ns"/2" latency="100ns" store-and-forward="true"/'
scenario rdma_write.xml wsf.xml sksf.xml
run wsf "$out/wsf.xml" --model roce
check wsf "j['sim_time_ps'] == $(sim_ps w100) + 333760"
# A shared buffer too small: refused with the file, the switch's line and
# id. Under roce with PFC on the priority the write uses, each linked port
# of sw1 keeps 8 reserves of 9,216 bytes (one a priority) and the headroom
# of that priority (ibfs__eth_headroom), which follows the skeleton's
# 100 ns: 100 Gb/s x (2 x 10 ns of cable + 100 ns + 54 header bytes =
# 4.32 ns) = 1,554 B, + one 9,216-byte frame on the wire (9,236 with
# preamble and gap) + a PFC frame (84) + 2 x 9,236: 29,346 B.
# 2 ports x (8 x 9,216 + 29,346) = 206,148 B > 64 KiB = 65,536 B.
fabric skeleton.xml skb.xml \
	's/"sw1" ports="2"/"sw1" ports="2" shared-buffer="64KiB"/'
scenario rdma_write.xml wb.xml skb.xml
"$IBFSIM" run "$out/wb.xml" --model roce >"$out/r.txt" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "$out/skb.xml:12: switch 'sw1' (shared-buffer \
65536 bytes): switch profile generic-100g: 65536 bytes of buffer do not hold \
the 206148 bytes of reserved minima and headroom" "$out/r.txt"
then ok; else bad "small shared-buffer: exit $rc: $(cat "$out/r.txt")"; fi
# The lossy incast (examples/roce_incast_lossy.xml, PFC off) with 512 KiB
# of shared buffer in each leaf instead of 12 MiB: the reserves, 4 linked
# ports x 8 priorities x 9,216 = 294,912 B, leave a pool of 229,376 B
# instead of 12,288,000: more drops, every message still completes, and
# no leaf ever holds more than its 524,288 bytes.
fabric fat-tree-k4-l2.xml ftb.xml \
	's/id="leaf[0-9]" ports="4"/& shared-buffer="512KiB"/'
scenario roce_incast_lossy.xml lb.xml ftb.xml
run lossyb "$out/lb.xml"
check lossyb "j['messages']['completed'] == 7 and j['conservation']['ok']"
check lossyb "j['switch_drops']['tail'] > \
$(python3 -c "import json; print(json.load(open('$out/lossy.json'))\
['switch_drops']['tail'])")"
check lossyb "max(s['buffer_peak_bytes'] for s in j['switches'] \
if s['id'].startswith('leaf')) <= 524288"
# alpha: the queue toward node1 in leaf1 is admitted while it holds at
# most alpha x (pool - shared bytes in use), and the shared bytes are its
# own: it stops near q = alpha x (S - q), q = S x alpha / (1 + alpha),
# with S = 12,288,000 B: S / 2 = 6,144,000 with alpha 1, S / 9 =
# 1,365,333 with alpha 0.125. leaf1's peak adds at most the 4 ingress
# reserves of the priority in use (36,864 B) and is short of it by less
# than one 9,216-byte frame.
fabric fat-tree-k4-l2.xml fta.xml \
	's/id="leaf[0-9]" ports="4"/& alpha="0.125"/'
scenario roce_incast_lossy.xml la.xml fta.xml
run lossya "$out/la.xml"
check lossya "j['messages']['completed'] == 7 and j['conservation']['ok']"
peak="[s['buffer_peak_bytes'] for s in j['switches'] if s['id'] == 'leaf1'][0]"
check lossya "1365333 - 9216 < $peak <= 1365333 + 36864"
check lossy "6144000 - 9216 < $peak <= 6144000 + 36864"

# PFC deadlock: exit 1, the verdict and its cycle.
ring="sw1:2/VL0 -> sw2:2/VL0 -> sw3:2/VL0 -> sw4:2/VL0 -> sw5:2/VL0"
"$IBFSIM" run "$ex/roce_ring_deadlock.xml" --json "$out/ring.json" \
	>"$out/ring.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] && ok || bad "roce_ring_deadlock: exit $rc, want 1"
grep -qxF "DEADLOCK: $ring -> sw1:2/VL0" "$out/ring.txt" && ok ||
	bad "roce_ring_deadlock: no cycle line: $(cat "$out/ring.txt")"
check ring "j['model'] == 'roce' and j['deadlock'] is True and \
j['deadlock_cycle'] == '$ring -> sw1:2/VL0'"
check ring "j['packets']['dropped'] == 0 and \
j['messages']['completed'] == 0 and j['conservation']['ok']"
check ring "j['pfc']['pause_frames_sent'] >= 5 and \
j['sim_time_ps'] > 0 and j['sim_time_ps'] % 50000000 == 0"
# The same with PFC off (the fabric's path made absolute for the copy).
plat=$(cd "$top_srcdir/platforms" && pwd)
sed -e 's/pfc="on"/pfc="off"/' -e "s|\.\./platforms|$plat|" \
	"$ex/roce_ring_deadlock.xml" >"$out/ring_off.xml"
run ring_off "$out/ring_off.xml"
check ring_off "j['deadlock'] is False and 'deadlock_cycle' not in j and \
j['messages']['completed'] == 10 and j['conservation']['ok']"
check ring_off "j['packets']['dropped'] > 0 and \
j['packets']['dropped'] == j['switch_drops']['tail']"
# DCQCN: the incast against PFC alone.
run dcqcn "$ex/roce_incast_dcqcn.xml"
run dcqcn_off "$ex/roce_incast_dcqcn.xml" --cc none
check dcqcn "j['messages']['completed'] == 16 and \
j['packets']['dropped'] == 0 and j['conservation']['ok']"
check dcqcn "j['cc']['control'] == 'dcqcn' and \
j['cc']['params'] == 'hpcc-ns3' and j['cc']['cnp_sent'] > 0 and \
j['cc']['cnp_sent'] == j['cc']['cnp_received']"
check dcqcn_off "j['messages']['completed'] == 16 and \
j['packets']['dropped'] == 0 and j['cc']['control'] == 'none' and \
j['cc']['params'] is None and j['cc']['cnp_sent'] == 0"
check dcqcn "10 * j['pfc']['paused_ns'] <= \
json.load(open('$out/dcqcn_off.json'))['pfc']['paused_ns']"
grep -q "^cc: dcqcn (hpcc-ns3): [1-9][0-9]* CNPs sent" "$out/dcqcn.txt" &&
	ok || bad "dcqcn: no cc line: $(cat "$out/dcqcn.txt")"
# Fairness: each flow's bytes between 5 and 20 ms, of their sum.
run fair5 "$ex/roce_dcqcn_fairness.xml" --until 5ms
run fair20 "$ex/roce_dcqcn_fairness.xml" --until 20ms
check fair20 "(lambda a, b: all(abs(x / sum(b[k] - a[k] for k in b) - 0.5) \
<= 0.05 for x in (b[k] - a[k] for k in b)))(\
{f['src']: f['bytes'] for f in json.load(open('$out/fair5.json'))['flows']}, \
{f['src']: f['bytes'] for f in j['flows']})"
# The queue toward node1 (sw1:1) once both flows run, sampled every 10 us
# from 5 to 20 ms: never above Kmax (1,600,000 B: above it every frame
# is marked and each sender cuts its rate on the CNP), and on average no
# more than Kmin (400,000 B), where marking starts.
run fairq "$ex/roce_dcqcn_fairness.xml" --until 20ms --sample 10us \
	--csv "$out/fairq"
check fairq "(lambda q: len(q) == 1501 and max(q) <= 1600000 and \
sum(q) / len(q) <= 400000)([int(r['bytes_0']) for r in \
__import__('csv').DictReader(open('$out/fairq/samples_ports.csv')) \
if r['node'] == 'sw1' and r['port'] == '1' and float(r['time_ns']) >= 5e6])"
# Refusals: FILE:LINE (the <transport>'s, 54; a <cc>'s, 55), exit 2.
refuse_cc() {
	want=$1
	shift
	"$IBFSIM" run "$@" --quiet >"$out/r.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$out/r.txt"; then
		ok
	else
		bad "exit $rc, want 2 and '$want': $(cat "$out/r.txt")"
	fi
}
dq=$ex/roce_incast_dcqcn.xml
sed 's/cc="dcqcn"/cc="reno"/' "$dq" >"$out/cc1.xml"
refuse_cc "$out/cc1.xml:54: no congestion control 'reno'; expected one \
of none, dcqcn, hpcc, timely" "$out/cc1.xml"
sed 's/cc-params="hpcc-ns3"/cc-params="fast"/' "$dq" >"$out/cc2.xml"
refuse_cc "$out/cc2.xml:54: dcqcn has no parameter set 'fast'; expected \
one of paper, hpcc-ns3, connectx" "$out/cc2.xml"
sed 's|<ecn |<cc param="g" value="2"/><cc param="x" value="1"/><ecn |' \
	"$dq" >"$out/cc3.xml"
refuse_cc "$out/cc3.xml:55: <cc>: g=\"2\" is out of range: expected 0 to 1" \
	"$out/cc3.xml"
sed 's|<ecn |<cc param="rate-ai" value="5"/><ecn |' "$dq" >"$out/cc4.xml"
refuse_cc "$out/cc4.xml:55: <cc>: rate-ai=\"5\": expected a rate such as \
40Mbps" "$out/cc4.xml"
sed 's|<ecn |<cc param="k" value="5"/><ecn |' "$dq" >"$out/cc5.xml"
refuse_cc "$out/cc5.xml:55: <cc>: dcqcn has no parameter 'k'; expected \
one of cnp-interval," "$out/cc5.xml"
sed 's/model="roce"/model="ib"/' "$dq" >"$out/cc6.xml"
refuse_cc "$out/cc6.xml:54: cc=\"dcqcn\" is a RoCEv2 congestion control; \
under model=\"ib\" cc must be none" "$out/cc6.xml"
sed 's|<ecn |<cc value="5"/><ecn |' "$dq" >"$out/cc7.xml"
refuse_cc "$out/cc7.xml:55: <cc> needs" "$out/cc7.xml"
refuse_cc "--cc: hpcc:x: hpcc has no parameter set 'x'" "$dq" --cc hpcc:x
refuse_cc "--cc: dcqcn:x: dcqcn has no parameter set 'x'" "$dq" --cc dcqcn:x
refuse_cc "--model: cc=\"dcqcn\" is a RoCEv2 congestion control" "$dq" \
	--model ib
refuse_cc "--cc: cc=\"dcqcn\" is a RoCEv2 congestion control" \
	"$ex/incast_hol.xml" --cc dcqcn
# --cc with a set over the scenario's: the set is named in the results.
run dcqcn_cx "$ex/roce_incast_dcqcn.xml" --cc dcqcn:connectx
check dcqcn_cx "j['cc']['params'] == 'connectx' and \
j['messages']['completed'] == 16 and j['packets']['dropped'] == 0"

# Every drop has one cause: in every run above the causes sum to dropped.
for f in "$out"/*.json; do
	n=$(basename "$f" .json)
	check "$n" "len(j['packets']['dropped_by_cause']) == 9 and \
sum(j['packets']['dropped_by_cause'].values()) == j['packets']['dropped']"
done
echo "roce_scenarios: $pass checks passed, $fail failed"
[ "$fail" -eq 0 ]
