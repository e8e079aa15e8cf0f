#!/bin/sh
# SPDX-License-Identifier: MIT
# Multicast joins and leaves at run time through the SA
# (tests/data/scenario/mcast_join.xml, on platforms/star.xml: EDR 4x,
# 80 ps a byte, 2 m cables P = 10 ns, switch latency L = 100 ns, ideal
# HCAs; the SM and SA on node1).
#
# A GMP is 290 bytes; one way through the switch it takes
# W = 2P + ser(8) + L + ser(290) = 20,000 + 640 + 100,000 + 23,200 =
# 143,840 ps. The SA answers S = 1 us after the request is in: a join's
# response comes back 2W + S = 1,287,680 ps after it was sent. The SM's
# one MFT SMP leaves behind the response (ser(290) = 23,200 ps later),
# reaches the switch's agent P + ser(8) + L = 110,640 ps later, which
# answers after A = 1 us, back P + ser(290) = 33,200 ps later: the MFTs
# are programmed W + S + 23,200 + 110,640 + 1,000,000 + 33,200 =
# 2,310,880 ps after the join was sent (the switch applied the block
# 33,200 ps before that).
#
# node2 sends 20 UD SENDs (64 B + ImmDt) to g1, one every 2 us from 0.
# node4 joins at 0: its entry is in the switch from 2.278 us, so the send
# posted at 2 us (at the switch 110.6 ns later) misses it and the 18 from
# 4 us on reach it. node3 joins at 5 us (entry from 7.278 us: the sends
# from 8 us) and leaves at 30 us, when its QP detaches: the sends from
# 8 to 28 us, 11 copies; the two sent at 30 and 32 us still reach its
# port (the MFT changes 2.3 us after the leave) and are dropped there.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
data="$top_srcdir/tests/data/scenario"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$IBFSIM" run "$data/mcast_join.xml" --json "$out/r.json" \
	--pcap "$out/r.pcap" >"$out/stdout" || bad "run"
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 - "$out/r.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["multicast"][0]
for j in g["joins"]:
    print(j["op"], j["hca"], j["state"], j["at_ns"], j["status"],
          j["mlid"], j["response_ns"], j["mft_ns"], j.get("delivered"))
PY
)
	want="join node4 full 0.0 0 49152 1287.68 2310.88 18
join node3 full 5000.0 0 49152 1287.68 2310.88 11
leave node3 full 30000.0 0 49152 1287.68 2310.88 None"
	[ "$got" = "$want" ] && ok || bad "joins: $got"
else
	grep -q "join node3 (full) at 5000.000 ns: response 1287.680 ns (status 0x0000, MLID 0xc000), MFTs 2310.880 ns, 11 copies" \
		"$out/stdout" && ok || bad "summary: $(cat "$out/stdout")"
fi
grep -q "packets: .*, 4 dropped" "$out/stdout" && ok ||
	bad "dropped: $(grep packets "$out/stdout")"

if command -v tshark >/dev/null 2>&1; then
	f() { tshark -r "$out/r.pcap" -T fields -E separator=, -Y "$1" \
		-e infiniband.lrh.vl -e infiniband.lrh.slid \
		-e infiniband.lrh.dlid -e infiniband.bth.destqp \
		-e infiniband.deth.q_key -e infiniband.mad.method \
		-e infiniband.mad.status -e infiniband.mad.attributeid \
		-e infiniband.sa.attributeoffset \
		-e infiniband.sa.componentmask \
		-e infiniband.mcmemberrecord.mgid \
		-e infiniband.mcmemberrecord.q_key \
		-e infiniband.mcmemberrecord.mlid \
		-e infiniband.mcmemberrecord.mtu \
		-e infiniband.mcmemberrecord.rate \
		-e infiniband.mcmemberrecord.p_key \
		-e infiniband.mcmemberrecord.joinstate \
		-e infiniband.mcmemberrecord.packetlifetime 2>/dev/null |
		head -n 1; }
	# node3 (LID 4) joins: SubnAdmSet on VL0 to the SM (LID 2), QP1,
	# the GSI Q_Key; components MGID, PortGID, Q_Key, TClass, P_Key,
	# SL, FlowLabel, JoinState (0x130c7); AttributeOffset 7 (52 bytes).
	got=$(f 'infiniband.mad.method == 0x02 && infiniband.lrh.slid == 4')
	[ "$got" = "0x00,4,2,0x000001,0x0000000080010000,0x02,0x0000,0x0038,0x0007,0x00000000000130c7,ff12:401b:ffff::1,0x11111111,0x0000,0x00,0x00,0xffff,0x01,0x00" ] &&
		ok || bad "join request: $got"
	# Its GetResp: MLID 0xC000, MTU 4096 (5), rate 100 Gb/s (16),
	# PacketLifeTime 18.
	got=$(f 'infiniband.mad.method == 0x81 && infiniband.lrh.dlid == 4')
	[ "$got" = "0x00,2,4,0x000001,0x0000000080010000,0x81,0x0000,0x0038,0x0007,0x00000000000130c7,ff12:401b:ffff::1,0x11111111,0xc000,0x05,0x10,0xffff,0x01,0x12" ] &&
		ok || bad "join response: $got"
	# The leave: SubnAdmDelete (0x15) with MGID, PortGID, JoinState
	# (0x10003), answered with a DeleteResp (0x95).
	got=$(f 'infiniband.mad.method == 0x15')
	[ "$got" = "0x00,4,2,0x000001,0x0000000080010000,0x15,0x0000,0x0038,0x0007,0x0000000000010003,ff12:401b:ffff::1,0x11111111,0x0000,0x00,0x00,0xffff,0x01,0x00" ] &&
		ok || bad "leave: $got"
	got=$(f 'infiniband.mad.method == 0x95')
	case "$got" in
	0x00,2,4,0x000001,0x0000000080010000,0x95,0x0000,*) ok ;;
	*) bad "leave response: $got" ;;
	esac
else
	echo "tshark is missing: the MADs' dissected fields are not checked" \
		"(scripts/setup.sh --tests installs it)"
fi
# The SM's own HCA joins at 5 us and leaves at 31 us
# (mcast_join_sm.xml): its requests loop back to the SA, answered
# S = 1 us later; the MFT SMP leaves then, and is acknowledged
# 1,000,000 + 110,640 + 1,000,000 + 33,200 = 2,143,840 ps after the join.
# The switch has node1's entry from 7.111 us: the sends from 8 us to 30 us
# reach it (12); the send at 32 us arrives after its QP detached (at its
# port 32.2 us; the switch drops node1's entry at 33.111 us) and is
# dropped there; the four sends before 8 us and the three after 33 us go
# nowhere (the group's one other member is their SendOnly sender).
"$IBFSIM" run "$data/mcast_join_sm.xml" >"$out/sm.txt" || bad "run sm"
grep -q "join node1 (full) at 5000.000 ns: response 1000.000 ns (status 0x0000, MLID 0xc000), MFTs 2143.840 ns, 12 copies" \
	"$out/sm.txt" && ok || bad "SM's join: $(cat "$out/sm.txt")"
grep -q "leave node1 (full) at 31000.000 ns: response 1000.000 ns" \
	"$out/sm.txt" && ok || bad "SM's leave: $(cat "$out/sm.txt")"
grep -q "packets: .*, 8 dropped" "$out/sm.txt" && ok ||
	bad "SM's dropped: $(grep packets "$out/sm.txt")"
echo "mcast_join: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
