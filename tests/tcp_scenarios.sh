#!/bin/sh
# SPDX-License-Identifier: MIT
# Scenarios under --model tcp (kernel TCP/IP hosts on the Ethernet fabric,
# src/host), as a user runs them, with what they must show asserted:
# - latency: two hosts through one store-and-forward switch (EDR 4x, so
#   100 Gb/s of data, 80 ps a byte; 2 m cables, 10,000 ps each; switch
#   latency 500 ns), one 4 KiB SEND posted at 1 ms, long after the
#   handshake. At a 1500-byte MTU with timestamps the MSS is 1,448: the
#   message is segments of 1,448, 1,448 and 1,200 bytes, 1,538, 1,538 and
#   1,290 bytes on the wire (8 preamble + 14 Ethernet + 20 IPv4 + 20 TCP +
#   12 timestamps + payload + 4 FCS + 12 gap), all within IW10, so they
#   leave back to back, ending at 123,040, 246,080 and 349,280 ps. The
#   switch takes each whole (its tail 10,000 ps later), holds it 500,000
#   ps, and sends it when its output is free: segment 1 leaves at 633,040
#   and ends at 756,080; segment 2 is ready at 246,080 + 510,000 =
#   756,080 and ends at 879,120; segment 3 is ready at 349,280 + 510,000
#   = 859,280, waits for segment 2, ends at 879,120 + 103,200 = 982,320
#   and reaches the host 10,000 ps later: its application reads the last
#   byte 992,320 ps after the post, a latency of 992.320 ns;
# - a dead path: the connection given up after 15 backed-off timeouts, the
#   message failed (below);
# - goodput: 64 MiB on the same pair take the link at 100 x 1,448 /
#   1,538 = 94.148 Gb/s (slow start's few microseconds aside): the
#   message's rate within 0.5% of it; with mtu="9000", 100 x 8,948 /
#   9,038 = 99.004 Gb/s; a READ, a request and a response (below);
# - incast (examples/tcp_incast.xml, tcp_incast_rto1ms.xml): 32 x 64 KiB
#   into one server through a shallow switch, 2 Gb/s links. Every block
#   completes; with Linux's 200 ms minimum RTO the timeouts make the
#   aggregate goodput collapse below 20% of the link (0.4 Gb/s), with a
#   1 ms floor it stays above 70% (1.4 Gb/s); the drops are the switch's
#   tail drops, and there are timeouts in both;
# - DCTCP on a 2:1 incast (two 32 MiB SENDs into node1 of the star, ECN
#   marking every frame that leaves a queue of 64 KiB or more, kmin =
#   kmax, pmax 1: RFC 8257's step marking): nothing dropped, and from
#   100 us until the first completion the sampled queue at the switch's
#   port to node1 averages within 10% of K = 65,536 and never leaves
#   [0.75 K, 1.25 K]; CUBIC without marking fills the same queue past
#   10 K on average (and drops);
# - every example under --model tcp completes (exit 0), or is refused
#   with exit 2 and a message saying it is not modelled under tcp (or
#   that its cc="dcqcn" is an RNIC's, where tcp's is cubic...), or is
#   the PFC deadlock of roce_ring_deadlock.xml (exit 1, deadlock true);
#   every fabric of platforms/ runs a permutation to completion;
#   a refusal names the file and the element's line, and so does one of
#   the settings the hosts do not have (ip="v6");
# - tshark (skipped without it): a capture at the hosts' ports of the
#   1 ms incast has valid IPv4 and TCP checksums on every frame, the SYN's
#   options (MSS 1460, SACK-permitted, timestamps, window scale), SACK
#   blocks on some ACKs, and as many resent segments as the model's
#   retransmitted count: Wireshark names a resend
#   tcp.analysis.retransmission, or tcp.analysis.out_of_order when it
#   follows the highest sequence number by less than the connection's
#   first RTT (its packet-tcp.c), and a capture at the senders' own ports
#   sees no reordering, so the two together are the resends.
# Needs python3 to read the JSON (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
ex="$top_srcdir/examples"
plat=$(cd "$top_srcdir/platforms" && pwd)
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
. "$top_srcdir/tests/run_lib.sh"

cat >"$out/pair.xml" <<'EOF'
<?xml version="1.0"?>
<fabric version="1" name="tcp-pair">
  <defaults speed="EDR" width="4x" mtu="4096" data-vls="1" cable="2m"/>
  <switch id="sw1" ports="2" latency="500ns" store-and-forward="true"/>
  <hca id="a" ports="1"/>
  <hca id="b" ports="1"/>
  <link a="a:1" b="sw1:1"/>
  <link a="b:1" b="sw1:2"/>
</fabric>
EOF
msg() { # name size
	cat >"$out/$1.xml" <<EOF
<?xml version="1.0"?>
<scenario version="1" name="$1">
  <fabric file="pair.xml"/>
  <transport model="tcp"/>
  <traffic>
    <message op="send" src="a" dst="b" size="$2" start="1ms"/>
  </traffic>
</scenario>
EOF
}

msg lat 4KiB
run lat "$out/lat.xml"
check lat "j['model'] == 'tcp' and j['messages']['completed'] == 1"
check lat "j['messages']['latency_ns']['min'] == 992.32 and \
j['messages']['latency_ns']['max'] == 992.32"
check lat "j['packets']['dropped'] == 0 and j['packets']['retransmitted'] == 0"

# The path dies (sw1:2 down at 500 us, for good) before the message: its
# segment is sent again on every timeout, RTO = SRTT + 200 ms doubling up
# to 120 s, and the 16th timeout gives the connection up (Linux's
# tcp_retries2 = 15): 1,023 x (200 ms + SRTT) + 6 x 120 s, Linux's 924.6 s
# and SRTT's thousand-fold of a microsecond, after the post at 1 ms. The
# message fails as an RC QP's with its retries exhausted (status 12), and
# the run exits 1.
sed 's|</traffic>|</traffic>\
  <fault at="500us" link="sw1:2" action="down"/>|' "$out/lat.xml" >"$out/dead.xml"
"$IBFSIM" run "$out/dead.xml" --quiet --json "$out/dead.json" >"$out/dead.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || bad "dead path: exit $rc, want 1: $(cat "$out/dead.txt")"
check dead "j['messages']['failed'] == 1 and j['tcp']['timeouts'] == 16 and \
924.601e9 < j['sim_time_ns'] < 924.61e9"

msg bulk 64MiB
run bulk "$out/bulk.xml"
check bulk "abs(j['throughput_gbps']['aggregate'] - 100 * 1448 / 1538) \
< 0.005 * 100 * 1448 / 1538"
# mtu="9000": 8,948-byte segments in 9,038 bytes on the wire.
sed 's/model="tcp"/model="tcp" mtu="9000"/' "$out/bulk.xml" >"$out/bulk9k.xml"
run bulk9k "$out/bulk9k.xml"
check bulk9k "abs(j['throughput_gbps']['aggregate'] - 100 * 8948 / 9038) \
< 0.005 * 100 * 8948 / 9038"

# A 4 KiB READ: the 64-byte request (154 bytes on the wire, 12,320 ps)
# reaches b at 12,320 + 10,000 + 500,000 + 12,320 + 10,000 = 544,640 ps;
# b's application answers at once on its connection back to a, whose
# 4 KiB arrive 992,320 ps later, as the SEND's above: 1,536,960 ps.
sed 's/op="send"/op="read"/' "$out/lat.xml" >"$out/read.xml"
run read "$out/read.xml"
check read "j['messages']['latency_ns']['min'] == 1536.96 and \
j['messages']['completed'] == 1"

run incast "$ex/tcp_incast.xml"
run incast1 "$ex/tcp_incast_rto1ms.xml"
for n in incast incast1; do
	check $n "j['messages']['completed'] == 32 and j['messages']['failed'] == 0"
	check $n "j['tcp']['timeouts'] > 0 and j['packets']['dropped'] > 0 and \
j['packets']['dropped'] == j['packets']['dropped_by_cause']['switch_buffer']"
	check $n "j['packets']['retransmitted'] == j['tcp']['retransmitted']"
	check $n "j['conservation']['ok']"
done
check incast "j['throughput_gbps']['aggregate'] < 0.2 * 2"
check incast1 "j['throughput_gbps']['aggregate'] > 0.7 * 2"

# DCTCP's queue against CUBIC's, both from the samples.
twoone() { # name cc [ecn element]
	cat >"$out/$1.xml" <<EOF
<?xml version="1.0"?>
<scenario version="1" name="$1">
  <fabric file="$plat/star.xml"/>
  <transport model="tcp" cc="$2">$3</transport>
  <traffic>
    <message op="send" src="node2" dst="node1" size="32MiB"/>
    <message op="send" src="node3" dst="node1" size="32MiB"/>
  </traffic>
</scenario>
EOF
	run "$1" "$out/$1.xml" --sample 10us --csv "$out/$1.csv"
}
# queue NAME: min, mean and max bytes queued at sw1:1 from 100 us to the
# first completion.
queue() {
	python3 -c "import csv,sys
d=sys.argv[1]
end=min(int(m['done_ps']) / 1000
        for m in csv.DictReader(open(d + '.csv/messages.csv')))
q=[int(r['bytes_0']) for r in csv.DictReader(open(d + '.csv/samples_ports.csv'))
   if r['node'] == 'sw1' and r['port'] == '1' and
   100000 <= float(r['time_ns']) < end]
print(min(q), sum(q) / len(q), max(q))" "$out/$1"
}
twoone dctcp dctcp '<ecn kmin="64KiB" kmax="64KiB" pmax="1"/>'
twoone cubic cubic ''
check dctcp "j['packets']['dropped'] == 0 and j['ecn']['marked'] > 0"
set -- $(queue dctcp 2>"$out/py.err")
if [ $# -eq 3 ] && python3 -c "import sys; lo, mean, hi = map(float, sys.argv[1:])
k = 65536
sys.exit(0 if abs(mean - k) < 0.1 * k and lo >= 0.75 * k and hi <= 1.25 * k else 1)" "$@"; then
	ok
else
	bad "dctcp: queue (min mean max) $* $(cat "$out/py.err"), K 65536"
fi
set -- $(queue cubic 2>"$out/py.err")
[ $# -eq 3 ] && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 655360 else 1)" "$2" &&
	ok || bad "cubic: queue (min mean max) $* $(cat "$out/py.err")"

# Every example: completes, is refused as not modelled under tcp, or is
# the ring's PFC deadlock.
for f in "$ex"/*.xml; do
	b=$(basename "$f" .xml)
	"$IBFSIM" run --model tcp "$f" --quiet --json "$out/ex.json" \
		>"$out/ex.txt" 2>&1
	rc=$?
	case $rc in
	0) ok ;;
	1) if [ "$b" = roce_ring_deadlock ] &&
		grep -q '"deadlock": true' "$out/ex.json"; then ok; else
		bad "$b under tcp: exit 1: $(cat "$out/ex.txt")"; fi ;;
	2) if grep -q "not modelled under tcp\|under tcp cc is cubic\|\
root element must be <scenario>" "$out/ex.txt"; then ok; else
		bad "$b under tcp: exit 2: $(cat "$out/ex.txt")"; fi ;;
	*) bad "$b under tcp: exit $rc: $(cat "$out/ex.txt")" ;;
	esac
done
# Every fabric of platforms/: a permutation of 256 KiB writes completes.
for f in "$plat"/*.xml; do
	grep -q '^<fabric' "$f" || continue
	cat >"$out/pf.xml" <<EOF
<?xml version="1.0"?>
<scenario version="1" name="pf">
  <fabric file="$f"/>
  <transport model="tcp"/>
  <traffic>
    <pattern kind="permutation" op="write" size="256KiB"/>
  </traffic>
</scenario>
EOF
	"$IBFSIM" run "$out/pf.xml" --quiet --json "$out/pf.json" \
		>"$out/pf.txt" 2>&1 &&
		grep -q '"failed": 0, "incomplete": 0' "$out/pf.json" && ok ||
		bad "$(basename "$f") under tcp: $(cat "$out/pf.txt")"
done
"$IBFSIM" run --model tcp "$ex/collectives.xml" >"$out/r.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "collectives.xml:[1-9][0-9]*: collectives are not modelled under tcp" \
	"$out/r.txt" && ok || bad "collectives under tcp: exit $rc: $(cat "$out/r.txt")"
# A bad attribute value: FILE:LINE and what is expected, exit 2.
sed 's/model="tcp"/model="tcp" cc="vegas"/' "$out/lat.xml" >"$out/badcc.xml"
"$IBFSIM" run "$out/badcc.xml" >"$out/r.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "badcc.xml:4:.*cc" "$out/r.txt" && ok ||
	bad "cc=vegas: exit $rc: $(cat "$out/r.txt")"
sed 's/model="tcp"/model="tcp" rto-min="0ms"/' "$out/lat.xml" >"$out/badrto.xml"
"$IBFSIM" run "$out/badrto.xml" >"$out/r.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "badrto.xml:4: rto-min must be above 0" "$out/r.txt" &&
	ok || bad "rto-min=0: exit $rc: $(cat "$out/r.txt")"
sed 's/model="tcp"/model="tcp" ip="v6"/' "$out/lat.xml" >"$out/v6.xml"
"$IBFSIM" run "$out/v6.xml" >"$out/r.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'v6.xml:4: ip="v6" is not modelled under tcp' \
	"$out/r.txt" && ok || bad "ip=v6 under tcp: exit $rc: $(cat "$out/r.txt")"

if command -v tshark >/dev/null 2>&1; then
	ports=server
	for i in $(seq 1 32); do ports="$ports,c$i"; done
	run cap "$ex/tcp_incast_rto1ms.xml" --pcap "$out/cap.pcap" \
		--pcap-ports "$ports"
	count() {
		tshark -r "$out/cap.pcap" -o tcp.check_checksum:TRUE \
			-o ip.check_checksum:TRUE -Y "$1" 2>/dev/null | wc -l
	}
	total=$(count "tcp")
	good=$(count "tcp.checksum.status == 1 && ip.checksum.status == 1")
	[ "$total" -gt 0 ] && [ "$total" -eq "$good" ] && ok ||
		bad "capture: $good of $total frames with good checksums"
	syn=$(count "tcp.flags.syn == 1 && tcp.flags.ack == 0 && \
tcp.options.mss_val == 1460 && tcp.options.sack_perm && \
tcp.options.timestamp.tsval && tcp.options.wscale.shift")
	[ "$syn" -eq 32 ] && ok || bad "capture: $syn SYNs with the options, want 32"
	[ "$(count tcp.options.sack_le)" -gt 0 ] && ok ||
		bad "capture: no SACK blocks"
	resent=$(count "tcp.analysis.retransmission || tcp.analysis.out_of_order")
	check cap "j['packets']['retransmitted'] == $resent"
else
	echo "SKIP: tshark checks (tshark is not installed)"
fi

echo "tcp_scenarios: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
