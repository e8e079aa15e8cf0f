#!/bin/sh
# SPDX-License-Identifier: MIT
# Captures of real transport traffic: tshark dissects our pcap/ERF files
# (opcode, QP, PSN, RETH, AETH), and the ICRC and VCRC of every packet are
# recomputed independently of the simulator (Python's zlib CRC-32 over the
# masked packet; a bit-by-bit CRC-16) since tshark does not check them.
# Skips (77) when neither tshark nor python3 is installed.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
have_tshark=0 have_py=0
command -v tshark >/dev/null 2>&1 && have_tshark=1
command -v python3 >/dev/null 2>&1 && have_py=1
if [ $have_tshark = 0 ] && [ $have_py = 0 ]; then
	echo "SKIP: neither tshark nor python3 is installed"
	exit 77
fi
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$IBFSIM" run "$top_srcdir/examples/rdma_write.xml" --pcap "$out/w.pcap" >/dev/null || bad "write run"
"$IBFSIM" run "$top_srcdir/examples/rdma_read.xml" --pcap "$out/r.pcap" >/dev/null || bad "read run"

if [ $have_tshark = 1 ]; then
	f() { p=$1; shift; tshark -r "$p" -T fields -E separator=, "$@" 2>/dev/null; }
	# Each packet is seen twice: leaving the HCA and leaving the switch
	# towards the other HCA (every port facing an HCA is captured).
	f "$out/w.pcap" -e infiniband.bth.opcode | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ' >"$out/ops"
	# RC RDMA WRITE First 6 (1), Middle 7 (14), Last 8 (1), Acknowledge 17.
	[ "$(cat "$out/ops")" = "17:2 6:2 7:28 8:2 " ] && ok || bad "write opcodes: $(cat "$out/ops")"
	first=$(tshark -r "$out/w.pcap" -T fields -E separator=, -e infiniband.lrh.slid -e infiniband.lrh.dlid \
		-e infiniband.bth.psn -e infiniband.reth.dmalen -e data.len -Y 'infiniband.bth.opcode == 6' 2>/dev/null | head -n 1)
	[ "$first" = "2,3,0,65536,4096" ] && ok || bad "WRITE First: $first"
	psns=$(tshark -r "$out/w.pcap" -T fields -e infiniband.bth.psn -Y 'infiniband.lrh.slid == 2' 2>/dev/null | sort -nu | tr '\n' ' ')
	[ "$psns" = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 " ] && ok || bad "PSNs: $psns"
	ack=$(tshark -r "$out/w.pcap" -T fields -E separator=, -e infiniband.bth.psn -e infiniband.aeth.syndrome \
		-e infiniband.aeth.msn -Y 'infiniband.bth.opcode == 17' 2>/dev/null | head -n 1)
	# AETH: an ACK (syndrome 0 in bits 7:5) of PSN 15, MSN 1.
	[ "$ack" = "15,31,1" ] && ok || bad "ACK: $ack"
	qp=$(tshark -r "$out/w.pcap" -T fields -e infiniband.bth.destqp -Y 'infiniband.lrh.slid == 2' 2>/dev/null | sort -u | wc -l)
	[ "$qp" -eq 1 ] && ok || bad "one destination QP: $qp"
	# READ: Request 12 with RETH, Response First 13 and Last 15 with AETH,
	# Middle 14.
	f "$out/r.pcap" -e infiniband.bth.opcode | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ' >"$out/rops"
	[ "$(cat "$out/rops")" = "12:2 13:2 14:28 15:2 " ] && ok || bad "read opcodes: $(cat "$out/rops")"
	req=$(tshark -r "$out/r.pcap" -T fields -E separator=, -e infiniband.reth.dmalen -Y 'infiniband.bth.opcode == 12' 2>/dev/null | head -n 1)
	[ "$req" = "65536" ] && ok || bad "READ Request length: $req"
fi

if [ $have_py = 1 ]; then
	python3 - "$out/w.pcap" "$out/r.pcap" <<'PY' && ok || bad "ICRC/VCRC"
import struct, sys, zlib

def crc16_vcrc(data):
    # CRC-16, polynomial 0x100B, reflected (0xD008), initial 0xFFFF,
    # complemented: computed bit by bit, independently of the C tables.
    c = 0xFFFF
    for byte in data:
        c ^= byte
        for _ in range(8):
            c = (c >> 1) ^ 0xD008 if c & 1 else c >> 1
    return (~c) & 0xFFFF

n = 0
for path in sys.argv[1:]:
    b = open(path, 'rb').read()
    assert struct.unpack('<I', b[:4])[0] == 0xa1b23c4d
    assert struct.unpack('<I', b[20:24])[0] == 197
    off = 24
    while off < len(b):
        incl = struct.unpack('<I', b[off + 8:off + 12])[0]
        rec = b[off + 16:off + 16 + incl]
        off += 16 + incl
        assert rec[8] == 21, 'ERF type'
        pkt = rec[16:]
        assert struct.unpack('>H', rec[14:16])[0] == len(pkt)
        pktlen = (struct.unpack('>H', pkt[4:6])[0] & 0x7FF) * 4
        assert pktlen == len(pkt) - 2, 'PktLen'
        masked = bytearray(pkt[:-6])
        masked[0] |= 0xF0        # LRH:VL
        masked[12] = 0xFF        # BTH: FECN, BECN, Resv6
        icrc = struct.unpack('<I', pkt[-6:-2])[0]
        assert icrc == zlib.crc32(bytes(masked)) & 0xFFFFFFFF, 'ICRC'
        assert struct.unpack('<H', pkt[-2:])[0] == crc16_vcrc(pkt[:-2]), 'VCRC'
        n += 1
assert n == 34 + 34, n
PY
fi

# Multicast (examples/multicast.xml): each UD SEND to MLID 0xC000 carries
# a GRH (LNH 3, IBA 8.3.1) whose DGID is the group's MGID: 8 + 40 + 12 +
# 8 + 1,024 + 4 + 2 = 1,098 bytes on the wire, LRH PktLen 274 words. Three
# sends, each captured leaving node1 and leaving the switch towards each
# of the three members: 12 records. The ICRC of a global packet masks the
# whole LRH and the GRH's TClass, FlowLabel and HopLmt (IBA 7.8.1).
"$IBFSIM" run "$top_srcdir/examples/multicast.xml" --pcap "$out/m.pcap" >/dev/null || bad "multicast run"
if [ $have_tshark = 1 ]; then
	mc=$(tshark -r "$out/m.pcap" -T fields -E separator=, -e infiniband.lrh.lnh \
		-e infiniband.lrh.dlid -e infiniband.lrh.pktlen -e infiniband.grh.dgid \
		-e infiniband.bth.opcode -e infiniband.bth.destqp -e data.len 2>/dev/null | sort | uniq -c |
		sed 's/^ *//')
	[ "$mc" = "12 0x03,49152,274,ff12:401b:ffff::1,100,0xffffff,1024" ] && ok ||
		bad "multicast capture: $mc"
fi
if [ $have_py = 1 ]; then
	python3 - "$out/m.pcap" <<'PY' && ok || bad "multicast ICRC/VCRC"
import struct, sys, zlib
b = open(sys.argv[1], 'rb').read()
off, n = 24, 0
while off < len(b):
    incl = struct.unpack('<I', b[off + 8:off + 12])[0]
    pkt = b[off + 16:off + 16 + incl][16:]
    off += 16 + incl
    assert len(pkt) == 1098 and pkt[1] & 3 == 3, 'a global packet'
    m = bytearray(pkt[:-6])
    m[0:8] = b'\xff' * 8          # LRH
    m[8] |= 0x0F                  # TClass (low half)
    m[9:12] = b'\xff' * 3         # TClass (high half), FlowLabel
    m[15] = 0xFF                  # HopLmt
    m[48 + 4] = 0xFF              # BTH:Resv8a
    assert struct.unpack('<I', pkt[-6:-2])[0] == zlib.crc32(bytes(m)), 'ICRC'
    assert pkt[32:48] == bytes.fromhex('ff12401bffff00000000000000000001')
    n += 1
assert n == 12, n
PY
fi

# --pcap-ports and --pcap-snaplen: what leaves the chosen ports only, each
# record the packet's first 64 bytes with its wire length. leaf1:3 is an
# up link of the k=8 fat tree (no HCA on it: the default capture never
# sees it) and node1:1 an HCA port: each has as many records as its
# PortXmitPkts in ports.csv, and the headers still dissect.
if [ $have_py = 1 ]; then
	"$IBFSIM" run "$top_srcdir/examples/fat_tree_permutation.xml" --no-data \
		--quiet --pcap "$out/s.pcap" --pcap-ports leaf1:3,node1:1 \
		--pcap-snaplen 64 --csv "$out/s" >/dev/null || bad "snaplen run"
	want=$(awk -F, '($1 == "leaf1" && $2 == 3) || ($1 == "node1" && $2 == 1) \
		{ n += $6 } END { print n }' "$out/s/ports.csv")
	got=$(python3 - "$out/s.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert struct.unpack('<I', b[16:20])[0] == 64, 'snaplen in the header'
off, n = 24, 0
while off < len(b):
    incl, orig = struct.unpack('<II', b[off + 8:off + 16])
    rec = b[off + 16:off + 16 + incl]
    wlen = struct.unpack('>H', rec[14:16])[0]
    rlen = struct.unpack('>H', rec[10:12])[0]
    assert orig == 16 + wlen and rlen == incl, 'lengths'
    assert incl == 16 + min(64, wlen), 'caplen'
    pktlen = (struct.unpack('>H', rec[20:22])[0] & 0x7FF) * 4
    assert pktlen == wlen - 2, 'LRH PktLen is the wire length'
    off += 16 + incl
    n += 1
print(n)
PY
)
	[ -n "$want" ] && [ "$got" = "$want" ] && [ "$want" -gt 0 ] && ok ||
		bad "--pcap-ports: $got records, PortXmitPkts says $want"
fi
if [ $have_tshark = 1 ] && [ -s "$out/s.pcap" ]; then
	n=$(f "$out/s.pcap" -e infiniband.reth.dmalen | grep -c '^1048576$')
	[ "$n" -gt 0 ] && ok || bad "--pcap-snaplen 64: no RETH dissected"
fi

# Congestion control (IBA A10): FECN (0x80) and BECN (0x40) in the BTH's
# byte after the P_Key, which tshark 4.0 shows as infiniband.reserved.
# incast_cc: each packet that reached an HCA marked is captured once with
# FECN, leaving the last switch (the HCA ends see it before any switch
# marked it), so as many as the HCAs' fecn_rx; each ACK that carries a
# BECN twice (leaving its HCA and leaving the switch). The same fabric
# with UD SENDs: a CNP (opcode 0x80, 128: LRH, BTH, ICRC, PktLen 6
# words) for each FECN, also seen twice.
if [ $have_tshark = 1 ]; then
	"$IBFSIM" run "$top_srcdir/examples/incast_cc.xml" --quiet --pcap "$out/cc.pcap" \
		--json "$out/cc.json" >/dev/null || bad "incast_cc run"
	fecn_rx=$(sed -n 's/.*"hca": .*"fecn_rx": \([0-9]*\),.*/\1/p' "$out/cc.json" | awk '{ n += $1 } END { print n + 0 }')
	becn_tx=$(sed -n 's/.*"congestion_control": {.*"becn_tx": \([0-9]*\),.*/\1/p' "$out/cc.json")
	n=$(f "$out/cc.pcap" -e infiniband.bth.opcode -Y 'infiniband.bth.opcode < 100 && infiniband.reserved == 80' | wc -l)
	[ "$fecn_rx" -gt 0 ] && [ "$n" -eq "$fecn_rx" ] && ok ||
		bad "FECN records: $n, the HCAs' fecn_rx $fecn_rx"
	n=$(f "$out/cc.pcap" -e infiniband.bth.opcode -Y 'infiniband.bth.opcode == 17 && infiniband.reserved == 40' | wc -l)
	[ -n "$becn_tx" ] && [ "$becn_tx" -gt 0 ] && [ "$n" -eq $((2 * becn_tx)) ] && ok ||
		bad "BECN ACK records: $n, becn_tx $becn_tx"
	sed 's/op="write"/op="send" qp="ud" size="4KiB" count="50"/; s/ size="4MiB"//' \
		"$top_srcdir/examples/incast_cc.xml" >"$out/ud.xml"
	"$IBFSIM" run "$out/ud.xml" --quiet --pcap "$out/ud.pcap" --json "$out/ud.json" >/dev/null ||
		bad "UD incast_cc run"
	cnp=$(sed -n 's/.*"cnp_tx": \([0-9]*\), "becn_rx".*/\1/p' "$out/ud.json" | head -n 1)
	cnps=$(f "$out/ud.pcap" -e infiniband.bth.destqp -e infiniband.lrh.pktlen \
		-Y 'infiniband.bth.opcode == 128 && infiniband.reserved == 40' | sort | uniq -c | awk '{print $1":"$2}')
	[ -n "$cnp" ] && [ "$cnp" -gt 0 ] && [ "$cnps" = "$((2 * cnp)):0x000011,6" ] && ok ||
		bad "CNP records: $cnps, cnp_tx $cnp"
fi
if [ $have_py = 1 ] && [ -s "$out/ud.pcap" ]; then
	python3 - "$out/ud.pcap" <<'PY' && ok || bad "ICRC of CC packets"
import struct, sys, zlib
b = open(sys.argv[1], 'rb').read()
off, n = 24, 0
while off < len(b):
    incl = struct.unpack('<I', b[off + 8:off + 12])[0]
    pkt = b[off + 32:off + 16 + incl]
    off += 16 + incl
    masked = bytearray(pkt[:-6])
    masked[0] |= 0xF0
    masked[12] = 0xFF        # BTH: FECN, BECN, Resv6 (variant)
    assert struct.unpack('<I', pkt[-6:-2])[0] == zlib.crc32(bytes(masked)) & 0xFFFFFFFF
    n += pkt[12] != 0
assert n > 0, 'no FECN or BECN'
PY
fi

echo "capture_tshark: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
