#!/bin/sh
# SPDX-License-Identifier: MIT
# PortInfo as the in-band SM reads and sets it, dissected by tshark from
# the run's capture (tests/data/scenario/sm_port_info.xml: a 4-port
# switch, a on port 1 at 4x EDR, b on port 2 at 12x QDR, c on port 3 at
# 2x HDR, port 4 free; 8 data VLs, MTU 2048; the SM on a, whose own
# port's SMPs never reach the wire). Codes of IBA 14.2.5.6:
# LinkWidth 1 1x, 2 4x, 8 12x, 16 2x; LinkSpeed 1 SDR, 2 DDR, 4 QDR (EDR
# and HDR show as QDR there; tshark 4.0 does not dissect the Ext fields,
# check_sma does); MTU 4 = 2048; VLs 4 = VL0-7; CapabilityMask 0x40
# IsSLMappingSupported, 0x4000 IsExtendedSpeedsSupported. A capture has
# an SMP once for each link it crosses, so the checks take distinct rows.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v tshark >/dev/null 2>&1 || {
	echo "tshark is missing (scripts/setup.sh --tests installs it)"
	exit 77
}
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$IBFSIM" run "$top_srcdir/tests/data/scenario/sm_port_info.xml" \
	--pcap "$out/r.pcap" >"$out/stdout" || bad "run"
# The distinct values of fields of the PortInfo SMPs that filter $1 picks
# (the other arguments, each becoming -e infiniband.portinfo.NAME).
pi() {
	filter=$1
	shift
	for e; do set -- "$@" -e "infiniband.portinfo.$e"; shift; done
	tshark -r "$out/r.pcap" -T fields -E separator=, \
		-Y "infiniband.mad.attributeid == 0x0015 && $filter" "$@" \
		2>/dev/null | sort -u | tr '\n' ' '
}
n=$(tshark -r "$out/r.pcap" -Y "infiniband.mad.attributeid == 0x0015" \
	2>/dev/null | wc -l)
[ "$n" -gt 40 ] && ok || bad "PortInfo SMPs: $n"
# SMSupportExtendedSpeeds (modifier bit 31): only in the link manager's
# Sets with no change of state to the ends of links both of whose ends
# support extended speeds (a's and c's: switch ports 1 and 3, c's port;
# not b's QDR link), as OpenSM sends it.
got=$(tshark -r "$out/r.pcap" -T fields -E separator=, \
	-Y "infiniband.mad.attributeid == 0x0015 &&
	    (infiniband.mad.attributemodifier & 0x80000000)" \
	-e infiniband.mad.method -e infiniband.mad.attributemodifier \
	-e infiniband.smpdirected.hopcount -e infiniband.portinfo.portstate \
	2>/dev/null | sort -u | tr '\n' ' ')
[ "$got" = "0x02,0x80000001,0x01,0x00 0x02,0x80000001,0x02,0x00 0x02,0x80000003,0x01,0x00 0x81,0x80000001,0x01,0x02 0x81,0x80000001,0x02,0x02 0x81,0x80000003,0x01,0x02 " ] &&
	ok || bad "bit 31: $got"
# The Sets of linked ports: NeighborMTU and OperationalVLs that both
# ends take, OpenSM's SubnetTimeOut 18, LinkWidthEnabled and
# LinkSpeedEnabled as read; switch port 0's: the link-local prefix,
# SubnetTimeOut 18.
got=$(pi 'infiniband.mad.method == 0x02 &&
	infiniband.mad.attributemodifier != 0' \
	neighbormtu operationalvls subnettimeout linkwidthenabled \
	linkspeedenabled)
[ "$got" = "0x04,0x04,0x12,0x03,0x07 0x04,0x04,0x12,0x0b,0x07 0x04,0x04,0x12,0x11,0x07 " ] &&
	ok || bad "link Sets: $got"
got=$(pi 'infiniband.mad.method == 0x02 &&
	infiniband.mad.attributemodifier == 0' \
	guid subnettimeout neighbormtu)
[ "$got" = "0xfe80000000000000,0x12,0x00 " ] && ok ||
	bad "switch port 0 Set: $got"
# The answers: widths and speeds of each link as both ends report them;
# GidPrefix and CapabilityMask on CA ports and switch port 0 only.
got=$(pi 'infiniband.mad.method == 0x81' linkwidthsupported \
	linkwidthenabled linkwidthactive linkspeedsupported \
	linkspeedenabled linkspeedactive mtucap neighbormtu vlcap \
	operationalvls capabilitymask guid)
want="0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x04,0x04,0x00004040,0xfe80000000000000 \
0x00,0x00,0x00,0x00,0x00,0x00,0x04,0x04,0x04,0x04,0x00000000,0x0000000000000000 \
0x03,0x03,0x02,0x07,0x07,0x04,0x04,0x04,0x04,0x04,0x00000000,0x0000000000000000 \
0x0b,0x0b,0x08,0x07,0x07,0x04,0x04,0x04,0x04,0x04,0x00000000,0x0000000000000000 \
0x0b,0x0b,0x08,0x07,0x07,0x04,0x04,0x04,0x04,0x04,0x00000040,0xfe80000000000000 \
0x11,0x11,0x10,0x07,0x07,0x04,0x04,0x04,0x04,0x04,0x00000000,0x0000000000000000 \
0x11,0x11,0x10,0x07,0x07,0x04,0x04,0x04,0x04,0x04,0x00004040,0xfe80000000000000 "
[ "$got" = "$want" ] && ok || bad "answers: $got"
echo "sm_port_info: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
