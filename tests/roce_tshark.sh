#!/bin/sh
# SPDX-License-Identifier: MIT
# An Ethernet capture of a RoCEv2 run (tests/roce_capture.c: an RDMA WRITE
# of 6,000 bytes, a SEND of 100, an RDMA READ of 5,000, PSNs from 100, then
# one PFC frame; again under DCQCN with the WRITE's first packet CE-marked,
# which adds a CNP) as tshark dissects it: the BTH, RETH and AETH of every
# frame to UDP port 4791, the IPv4 header checksum, ECN and TTL, the FCS,
# and the PFC frame as a MAC control frame; the same run with an 802.1Q
# tag and IPv6. Python's zlib recomputes each frame's FCS and ICRC (IBA
# A17.3.3's masked fields) independently of the simulator.
# Then a run of ibfsim whose switch marks ECN (a 2:1 incast on the star,
# every frame marked that leaves its queue not empty: kmin = kmax = 0,
# pmax 0): tshark shows IP ECN 3 (CE) on exactly the frames the results
# count as marked, 2 (ECT(0)) on the others, every IPv4 header checksum
# good; Python finds the BTH's FECN bit 0 in every frame and each ICRC
# right (ECN and FECN are among its masked fields).
# Skips (77) without tshark.
: "${ROCE_CAPTURE:=./tests/roce_capture}" "${IBFSIM:=./ibfsim}"
: "${top_srcdir:=$(pwd)}"
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed"
	exit 77
fi
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# Fields of the frames matching filter $2 in file $1, one line a frame.
f() {
	p=$1 y=$2; shift 2
	tshark -r "$p" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
		-o eth.check_fcs:TRUE -T fields -E separator=, -Y "$y" "$@" \
		2>/dev/null | tr '\n' ' '
}

"$ROCE_CAPTURE" "$out/r.pcap" || bad "IPv4 run"
"$ROCE_CAPTURE" "$out/v.pcap" vlan ipv6 || bad "802.1Q and IPv6 run"
"$ROCE_CAPTURE" "$out/c.pcap" cnp || bad "DCQCN run"
# pcap link type 1, LINKTYPE_ETHERNET: the 4 bytes at offset 20.
lt=$(od -An -tu4 -j20 -N4 "$out/r.pcap" | tr -d ' ')
[ "$lt" = 1 ] && ok || bad "link type: $lt"

# Opcode, destination QP, PSN: WRITE First 6 and Last 8 (PSNs 100, 101),
# ACK 17 of 101; SEND Only 4 (102), ACK of 102; READ Request 12 (103),
# Response First 13 and Last 15 (103, 104). Every QP is 0x11, the first
# of each HCA.
got=$(f "$out/r.pcap" 'udp.dstport == 4791' -e infiniband.bth.opcode \
	-e infiniband.bth.destqp -e infiniband.bth.psn)
want="6,0x000011,100 8,0x000011,101 17,0x000011,101 4,0x000011,102 \
17,0x000011,102 12,0x000011,103 13,0x000011,103 15,0x000011,104 "
[ "$got" = "$want" ] && ok || bad "BTH: $got"
# RETH DMA length of the WRITE First and the READ Request.
got=$(f "$out/r.pcap" 'infiniband.reth' -e infiniband.bth.opcode \
	-e infiniband.reth.dmalen)
[ "$got" = "6,6000 12,5000 " ] && ok || bad "RETH: $got"
# AETH: syndrome 31 (ACK, credits not used) and the MSN: 1 after the
# WRITE, 2 after the SEND, 3 in both READ responses that carry one.
got=$(f "$out/r.pcap" 'infiniband.aeth' -e infiniband.bth.opcode \
	-e infiniband.aeth.syndrome -e infiniband.aeth.msn)
[ "$got" = "17,31,1 17,31,2 13,31,3 15,31,3 " ] && ok || bad "AETH: $got"
# Payload lengths: 4096 + 1904 of the WRITE, 100, 4096 + 904 of the READ.
got=$(f "$out/r.pcap" 'data' -e data.len)
[ "$got" = "4096 1904 100 4096 904 " ] && ok || bad "payloads: $got"
# IPv4: header checksum good (1), ECN ECT(0) (2), TTL 64, DF, UDP
# checksum absent (0) on all eight frames; FCS good (1).
got=$(f "$out/r.pcap" 'udp.dstport == 4791' -e ip.checksum.status \
	-e ip.dsfield.ecn -e ip.ttl -e ip.flags.df -e udp.checksum \
	-e eth.fcs.status | tr ' ' '\n' | sort | uniq -c | tr -s ' ')
[ "$got" = " 8 1,2,64,1,0x0000,1" ] && ok || bad "IPv4/FCS: $got"
# The checker sees a wrong one: frame 1's TTL (file offset 24 + 16 + 14
# + 8 = 62) changed from 64 to 63, its checksum is bad (0).
cp "$out/r.pcap" "$out/x.pcap"
printf '\077' | dd of="$out/x.pcap" bs=1 seek=62 conv=notrunc 2>/dev/null
got=$(f "$out/x.pcap" 'frame.number <= 2' -e ip.ttl -e ip.checksum.status)
[ "$got" = "63,0 64,1 " ] && ok || bad "a corrupted TTL: $got"

# PFC: a MAC control frame of 64 bytes to 01:80:c2:00:00:01 from host
# 1's MAC, opcode 0x0101, priorities 0 and 3 for 65535 and 4660 quanta.
got=$(f "$out/r.pcap" 'macc.opcode == 0x0101' -e frame.len -e eth.dst \
	-e eth.src -e macc.cbfc.enbv -e macc.cbfc.pause_time.c0 \
	-e macc.cbfc.pause_time.c3 -e macc.cbfc.pause_time.c7)
[ "$got" = "64,01:80:c2:00:00:01,02:00:00:00:00:01,0x0009,65535,4660,0 " ] &&
	ok || bad "PFC: $got"

# 802.1Q and IPv6: PCP 0 (SL 0) and VID 0, DSCP 0, hop limit 64, the UDP
# checksum good, the transport as above.
got=$(f "$out/v.pcap" 'udp.dstport == 4791' -e vlan.priority -e vlan.id \
	-e ipv6.tclass.dscp -e ipv6.hlim -e udp.checksum.status | tr ' ' '\n' |
	sort | uniq -c | tr -s ' ')
[ "$got" = " 8 0,0,0,64,1" ] && ok || bad "802.1Q/IPv6: $got"
got=$(f "$out/v.pcap" 'udp.dstport == 4791' -e infiniband.bth.opcode \
	-e infiniband.bth.psn -e ipv6.src)
want="6,100,fd00::a00:1 8,101,fd00::a00:1 17,101,fd00::a00:2 \
4,102,fd00::a00:1 17,102,fd00::a00:2 12,103,fd00::a00:1 \
13,103,fd00::a00:2 15,104,fd00::a00:2 "
[ "$got" = "$want" ] && ok || bad "IPv6 BTH: $got"

# DCQCN's CNP (IBA A17.9.3), host 2's answer to the CE-marked WRITE
# First, leaving as the WRITE Last ends (4,194 x 80 + 10,000 ps after
# t0): 14 + 20 + 8 + 12 (BTH) + 16 reserved + 4 (ICRC) + 4 (FCS) = 78
# bytes, to host 1's MAC from 10.0.0.2, DSCP 48 (priority 6, CS6),
# opcode 129 (0x81), DestQP 0x11, PSN 0, the BTH's byte 4 0x40 (BECN),
# then 16 zero bytes and the ICRC, which this tshark shows as vendor
# data; the frames around it as in r.pcap.
got=$(f "$out/c.pcap" 'infiniband.bth.opcode == 129' -e frame.len \
	-e eth.dst -e ip.src -e ip.dsfield.dscp -e infiniband.bth.destqp \
	-e infiniband.bth.psn -e infiniband.reserved -e infiniband.vendor)
want="78,02:00:00:00:00:01,10.0.0.2,48,0x000011,0,40,00000000,\
00000000000000000000000000000000dcdb858e "
[ "$got" = "$want" ] && ok || bad "CNP: $got"
got=$(f "$out/c.pcap" 'udp.dstport == 4791' -e infiniband.bth.opcode)
[ "$got" = "6 8 129 17 4 17 12 13 15 " ] && ok || bad "with a CNP: $got"

# ECN: the marked run.
cat >"$out/ecn.xml" <<EOF
<?xml version="1.0"?>
<scenario version="1" name="ecn-capture">
  <fabric file="$top_srcdir/platforms/star.xml"/>
  <transport model="roce"><ecn kmin="0B" kmax="0B" pmax="0"/></transport>
  <traffic>
    <message src="node1" dst="node3" op="write" size="256KiB"/>
    <message src="node2" dst="node3" op="write" size="256KiB"/>
  </traffic>
</scenario>
EOF
"$IBFSIM" run "$out/ecn.xml" --quiet --pcap "$out/e.pcap" \
	--json "$out/e.json" >"$out/e.txt" 2>&1 || bad "ECN run: $(cat "$out/e.txt")"
marked=$(sed -n 's/.*"ecn": {"marked": \([0-9]*\)}.*/\1/p' "$out/e.json")
got=$(f "$out/e.pcap" 'udp.dstport == 4791 && ip.dsfield.ecn == 3' \
	-e ip.checksum.status | tr ' ' '\n' | sort | uniq -c | tr -s ' ')
[ -n "$marked" ] && [ "$marked" -gt 0 ] && [ "$got" = " $marked 1" ] &&
	ok || bad "CE frames: $got, marked: $marked"
got=$(f "$out/e.pcap" 'udp.dstport == 4791 && ip.dsfield.ecn != 3' \
	-e ip.dsfield.ecn -e ip.checksum.status | tr ' ' '\n' | sort -u)
[ "$(echo $got)" = "2,1" ] && ok || bad "the other frames: $got"
total=$(f "$out/e.pcap" 'udp.dstport == 4791' -e frame.number | wc -w)

if command -v python3 >/dev/null 2>&1; then
	set -- "$((25 + total))" "$out/r.pcap" "$out/v.pcap" "$out/c.pcap" \
		"$out/e.pcap"
	python3 - "$@" <<'PY' && ok || bad "FCS/ICRC/FECN"
import struct, sys, zlib

n = 0
for path in sys.argv[2:]:
    b = open(path, 'rb').read()
    off = 24
    while off < len(b):
        incl, orig = struct.unpack('<II', b[off + 8:off + 16])
        fr = b[off + 16:off + 16 + incl]
        off += 16 + incl
        assert incl == orig and len(fr) >= 64
        assert struct.unpack('<I', fr[-4:])[0] == zlib.crc32(fr[:-4]), 'FCS'
        l2 = 18 if fr[12:14] == b'\x81\x00' else 14
        et = fr[l2 - 2:l2]
        if et == b'\x88\x08':
            continue
        ip = bytearray(fr[l2:-4])
        if et == b'\x08\x00':
            iph = 20
            ip[1] = ip[8] = ip[10] = ip[11] = 0xFF
        else:
            iph = 40
            ip[0] |= 0x0F
            ip[1] = ip[2] = ip[3] = ip[7] = 0xFF
        ulen = struct.unpack('>H', ip[iph + 4:iph + 6])[0]
        ip = ip[:iph + ulen]
        ip[iph + 6] = ip[iph + 7] = 0xFF
        if path.endswith('e.pcap'):
            assert ip[iph + 12] & 0x80 == 0, 'FECN'
        ip[iph + 12] = 0xFF
        icrc = struct.unpack('<I', bytes(ip[-4:]))[0]
        assert icrc == zlib.crc32(b'\xff' * 8 + bytes(ip[:-4])), 'ICRC'
        n += 1
assert n == int(sys.argv[1]), n
PY
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
