#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The in-band SM's SMPs against the real OpenSM's, attribute by attribute.
# For each fabric and engine: run opensm once (-o) over ibsim, as
# opensm_conformance.sh does, with OpenSM's default options and its frames
# logged (-D 0x20: every MAD it sends or receives, "SMP dump"), count the
# requests it sent in its one sweep by method and attribute, and compare
# with `ibfsim route --inband` ("in-band SMPs by attribute"), and the
# PortInfo Sets with SMSupportExtendedSpeeds (modifier bit 31) apart.
# Both SMs run on the fabric's first HCA, keep 4 SMPs on the wire, lose
# none.
#
# Each fabric runs twice with minhop: OpenSM's defaults (QoS off), and QoS
# on with the same settings on both sides (opensm -F with qos_* lines;
# ibfsim route --qos-*); ftree runs with the defaults; lash, which puts
# routes on SLs itself, with the defaults and with QoS on (OpenSM's man
# page asks -Q of it).
#
# dfsssp is not compared: OpenSM then sends one PortInfo Set more to each
# switch's port 0 (124 against 118 on fat-tree-k4-l2, with QoS on or
# off). That Set changes the port's MasterSMSL (0 to 2 on the star): the
# link manager sets it to the routing engine's path SL from the port to
# the SM, and dfsssp spreads paths over the VLs ibsim's ports report.
# ibfsim does not model MasterSMSL (SMPs, traps included, go on VL15
# whatever their SL).
#
# Two differences are documented and allowed for, both the size of a
# device's tables, which OpenSM reads from the device:
# - P_KeyTable Gets read a table in blocks of 32 entries, as many as the
#   table holds (NodeInfo PartitionCap for a CA port and a switch's port
#   0, SwitchInfo PartitionEnforcementCap for a switch's other ports;
#   OpenSM's osm_port_info_rcv.c). ibsim's CA ports hold 64 P_Keys, ours
#   128 as a ConnectX (IBFS_HCA_PKEYS); its switch ports 64, ours 32
#   (IBFS_SWITCH_PKEYS).
# - VLArbitrationTable Sets write the blocks a port's PortInfo says it has
#   (VLArbitrationLowCap, HighCap; vlarb_update in osm_qos.c): ibsim's
#   ports have 8 entries each way (blocks 1 and 3), ours 64 (blocks 1-4,
#   sma_attrs.c).
# So OpenSM's count is turned into what it would send to our devices: the
# tables it read (its block 0 Gets) and wrote (its block 1 Sets) times our
# blocks a table. Every other count must be equal.
#
# Counts depend on no timing here: OpenSM resends an SMP only after a
# 200 ms timeout (none happen over ibsim; a resend would show as a
# difference), and its max_wire_smps changes when SMPs leave, not which.
#
# Needs ibsim and libumad2sim.so (Debian ibsim-utils) and opensm; without
# them it says so and exits 77 (SKIP), never passing silently.
set -u

: "${IBFSIM:?IBFSIM must name the ibfsim binary}"
: "${top_srcdir:?top_srcdir must be set}"

. "$top_srcdir/tests/ibsim_lib.sh"
ibsim_require "the OpenSM SMP count test" "opensm ibsim-utils" opensm awk
ibsim_tmp ibfs-smpc
fails=0
checked=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# Our P_KeyTable blocks a table: CA port (128 entries), switch port 0 and
# switch external port (32 each): src/hca/hca.h, src/switch/switch.h; our
# VLArbitrationTable blocks a port (64 entries low and high).
ca_blocks=4 sw0_blocks=1 ext_blocks=1 arb_blocks=4

# The QoS settings of the QoS runs (one data VL, as the fabrics have).
sl2vl=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 vlarb_high=0:0 vlarb_low=0:64
high_limit=0

# osm_counts LOG: the requests OpenSM logged, as
# "Get NodeDescription 5, ..., Set PortInfo 33" (Gets first, each method
# by attribute ID), P_KeyTable Gets turned into our blocks (see above);
# then, on a line of its own, "ext N": its PortInfo Sets whose modifier
# has bit 31, SMSupportExtendedSpeeds (its link manager's, enabling the
# extended speeds of a link whose ends both support them).
osm_counts() {
	awk -v cab=$ca_blocks -v s0b=$sw0_blocks -v exb=$ext_blocks \
		-v arbb=$arb_blocks '
	function hex(s,    v, i) {
		v = 0
		s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef",
					   substr(s, i, 1)) - 1
		return v
	}
	function flush() {
		if (!inb) return
		inb = 0
		if (d == "0x1") {
			# A NodeInfo response: the node type at data byte 2.
			if (attr == "0x11") type[path] = ntype
			return
		}
		if (meth != "0x1" && meth != "0x2") return
		k = (meth == "0x1" ? "Get" : "Set") SUBSEP attr
		n[k]++
		name[attr] = aname
		if (meth == "0x2" && attr == "0x18" && int(hex(mod) / 65536) == 1)
			arb += arbb
		if (meth == "0x2" && attr == "0x15" && hex(mod) >= 2147483648)
			ext++
		if (meth == "0x1" && attr == "0x16") {
			m = hex(mod)
			if (m % 65536) return
			if (int(m / 65536)) pk += exb
			else if (type[path] == "02") pk += s0b
			else pk += cab
		}
	}
	/ -> SMP dump:/ { flush(); inb = 1; data = 0; next }
	!inb { next }
	/^[A-Z][a-z][a-z] [0-9]/ { flush(); next }
	/method\.\./ { sub(/.*\.\./, ""); meth = $1 }
	/D bit\.\./ { sub(/.*\.\./, ""); d = $1 }
	/attr_id\.\./ { sub(/.*\.\./, ""); attr = $1; aname = $2
		gsub(/[()]/, "", aname) }
	/attr_mod\.\./ { sub(/.*\.\./, ""); mod = $1 }
	/Initial path:/ { sub(/.*path: */, ""); path = $0 }
	/^[ \t]*[0-9A-F][0-9A-F] [0-9A-F][0-9A-F] / {
		if (!data++) ntype = $3
	}
	END {
		flush()
		out = ""
		for (mi = 0; mi < 2; mi++) {
			mm = mi ? "Set" : "Get"
			for (a = 16; a < 48; a++) {
				h = sprintf("0x%x", a)
				if (!((mm SUBSEP h) in n)) continue
				c = n[mm, h]
				if (mm == "Get" && h == "0x16") c = pk
				if (mm == "Set" && h == "0x18") c = arb
				out = out (out == "" ? "" : ", ") mm " " \
					name[h] " " c
			}
		}
		print out
		print "ext " ext + 0
	}' "$1"
}

# run_opensm NET OUT ENGINE [opensm args...]: one opensm sweep over ibsim,
# its log in OUT/osm.log.
run_opensm() {
	net=$1 out=$2 engine=$3
	shift 3
	ibsim_opensm "$net" "$out" "$engine" 0x20 "$@"
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q "SMP dump" "$out/osm.log"; then
		fail "opensm -R $engine on $net (exit $rc)"
		tail -5 "$out/opensm.out"
		return 1
	fi
	return 0
}

# compare NAME LABEL OSMDIR OURS: OpenSM's counts in OSMDIR/osm.log against
# the "in-band SMPs by attribute" and "... SMSupportExtendedSpeeds" lines
# of `ibfsim route` output OURS.
compare() {
	theirs=$(osm_counts "$3/osm.log")
	ours=$(sed -n -e 's/^in-band SMPs by attribute: //p' \
		-e 's/^in-band PortInfo Sets with SMSupportExtendedSpeeds: /ext /p' \
		"$4")
	echo "$1 $2: OpenSM: $theirs"
	echo "$1 $2: ours:   $ours"
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
		checked=$((checked + 1))
	else
		fail "$1 $2: SMP counts differ from OpenSM's"
	fi
}

printf 'qos TRUE\nqos_sl2vl %s\nqos_vlarb_high %s\nqos_vlarb_low %s\nqos_high_limit %s\n' \
	$sl2vl $vlarb_high $vlarb_low $high_limit >"$tmp/qos.conf"
for name in star fat-tree-k4-l2; do
	fab=$top_srcdir/platforms/$name.xml
	d=$tmp/$name
	mkdir -p "$d"
	"$IBFSIM" topo export "$fab" --format ibnetdiscover -o "$d/fab.net" ||
		{ fail "export $name"; continue; }
	for run in minhop ftree qos lash lash-qos; do
		eng=$run qos=
		case $run in
		*qos)
			eng=${run%-qos}
			[ $run = qos ] && eng=minhop
			qos="--qos-sl2vl $sl2vl --qos-vlarb-high $vlarb_high
			--qos-vlarb-low $vlarb_low --qos-high-limit $high_limit"
			;;
		esac
		if [ -n "$qos" ]; then
			run_opensm "$d/fab.net" "$d/osm-$run" $eng \
				-F "$tmp/qos.conf" || continue
		else
			run_opensm "$d/fab.net" "$d/osm-$run" $eng || continue
		fi
		# shellcheck disable=SC2086 # $qos is a list of options
		"$IBFSIM" route "$fab" --routing $eng --inband $qos \
			>"$d/ours-$run.txt" 2>&1 ||
			{ fail "$name $run: ibfsim route --inband";
			  cat "$d/ours-$run.txt"; continue; }
		compare $name $run "$d/osm-$run" "$d/ours-$run.txt"
	done
done

echo "$checked checks passed, $fails failed"
[ $fails -eq 0 ] && [ $checked -gt 0 ] || exit 1
exit 0
