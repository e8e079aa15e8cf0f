#!/bin/sh
# SPDX-License-Identifier: MIT
# ibfsim run: bad scenario files give "ibfsim: FILE:LINE: ..." and exit 2
# with nothing run; the walking skeleton moves a message and reports its
# completion at the closed-form picosecond; runs are deterministic and the
# same with data on and off.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
data="$top_srcdir/tests/data/scenario"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# file:line and a phrase that must appear.
while IFS='|' read -r file line phrase; do
	[ -n "$file" ] || continue
	"$IBFSIM" run "$data/$file" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	msg=$(cat "$out/stderr")
	[ "$rc" -eq 2 ] || { bad "$file: exit $rc, want 2"; continue; }
	case "$msg" in
	"ibfsim: $data/$file:$line: "*"$phrase"*) ok ;;
	*) bad "$file: got '$msg', want line $line and '$phrase'" ;;
	esac
	[ -s "$out/stdout" ] && bad "$file: printed results"
done <<'LIST'
bad_node.xml|5|no such node
bad_unit.xml|5|needs a unit
bad_time.xml|5|negative
bad_op.xml|5|not one of
bad_ud_read.xml|5|carries only send
bad_ud_size.xml|5|at most one MTU
bad_switch_dst.xml|5|dst="sw1" is a switch; traffic runs between HCAs
bad_sm_host.xml|4|host="sw1" is a switch; the subnet manager runs on an HCA's port here
bad_message_nosrc.xml|5|<message> needs a 'src' attribute
bad_fault_both.xml|4|<fault> names a link="NODE:PORT" or a switch="ID": not both
bad_fault_neither.xml|4|<fault> names a link="NODE:PORT" or a switch="ID": neither is given
bad_stop_noat.xml|4|<stop> needs an 'at' attribute
bad_sm_twice.xml|6|a second <subnet-manager> (the first is at line 4): a scenario has one
bad_fault_in_traffic.xml|6|unknown element <fault> in <traffic>
bad_text_in_traffic.xml|5|unexpected text in <traffic>
bad_stop_content.xml|5|<at> inside <stop>, which has no content
bad_element.xml|5|unknown element <messages> in <traffic>
bad_fault.xml|4|out of range
bad_incast.xml|5|needs dst
bad_lmc.xml|4|lmc
bad_fabric_missing.xml|3|cannot open
bad_malformed.xml|6|
bad_inline_fabric.xml|6|no node 'c'
bad_sl.xml|5|sl must be 0 to 15
bad_file_nolfts.xml|4|needs lfts
bad_qps.xml|5|qps must be 1 to 1024
bad_rate.xml|5|a rate needs a unit
bad_attr.xml|5|<message> has no attribute 'bogus'
bad_routing.xml|4|routing="ospf": unknown routing engine (known: minhop,
bad_profile.xml|5|unknown HCA profile 'connectx-9' for 'a'
bad_lfts.xml|4|sm/bad-entry.lfts:3: expected 'LID PORT'
bad_version.xml|3|scenario version "2" is not supported (this ibfsim reads version 1)
bad_inline_version.xml|4|fabric version "2" is not supported
bad_inline_width.xml|5|<defaults> width="7x": unknown width (1x, 2x, 4x, 8x or 12x)
bad_lfts_guid.xml|4|osm-ftree-fat-tree-k4-l3.lfts:16: ERR 6302: LID 0x000f port 3 is out of range
bad_qos_vl.xml|15|qos-vlarb-low="0:64,2:64": entry 2 names VL 2, but the fabric has 2 data VLs
bad_qos_starve.xml|15|SL 0 is on VL 0, which has no weight in either VL arbitration table
bad_qos_dfsssp.xml|16|qos-sl2vl puts SLs 0 and 1 on VL 0, but dfsssp routes on SLs 0 to 1 as layers that each need a VL of their own
bad_unlinked.xml|14|'c' is not linked to the subnet manager's fabric (on 'a'): it gets no LID and no route
bad_unlinked_pattern.xml|13|the pattern covers every HCA, and 'c' is not linked to the subnet manager's fabric
bad_qos_lash.xml|16|qos-sl2vl puts SLs 0 and 1 on VL 1, but lash routes on SLs 0 to 1 as layers
bad_mcast_pkey.xml|7|'node2' and 'node3' are both limited members of partition 0x7fff
bad_mc_member.xml|4|member 'nodeX': no such node in the fabric
bad_mc_dup.xml|5|multicast group 'g1' is declared twice
bad_mc_dup_mgid.xml|5|mgid="ff12::1" already names group 'g1'
bad_mc_mgid.xml|4|mgid="fe80::1" is not a multicast GID (IBA 4.1.1: its first byte is 0xff)
bad_mc_gid.xml|4|mgid="ff12::1::2" is not a GID
bad_mc_switch.xml|4|member 'leaf1' is a switch; members are HCA ports
bad_mc_port.xml|4|member 'node1:2': node1 has 1 port(s)
bad_mc_twice.xml|4|member 'node1' port 1 is listed twice
bad_mc_empty.xml|4|members="": a group needs a member
bad_mc_nomgid.xml|4|<multicast-group> needs a 'mgid' attribute
bad_mc_group.xml|4|group="g9": no <multicast-group> has that id
bad_mc_size.xml|5|a UD message is at most one MTU (4096 B), not 5000 B
bad_mc_op.xml|5|op="write" is not one of: send, send-imm
bad_mc_attr.xml|5|<multicast> has no attribute 'qp'
bad_mc_unlinked.xml|14|member 'c' is not linked to the subnet manager's fabric (on 'a')
bad_mjoin_group.xml|5|group="g2": no <multicast-group> has that id
bad_mjoin_node.xml|5|node="sw1": member 'sw1' is a switch
bad_mjoin_state.xml|5|state="non" is not one of: full, sendonly
bad_mjoin_twice.xml|6|node3 joins 'g1' again: it joined at line 5
bad_mjoin_leave.xml|6|node3 leaves 'g1' without having joined it
bad_mjoin_member.xml|5|node3 is a member of 'g1' from bring-up
bad_mjoin_instant.xml|6|needs the in-band subnet manager
bad_mjoin_noat.xml|5|<multicast-join> needs an 'at' attribute
LIST

# validate agrees with run, and runs nothing (it checks the routing engine
# and the HCA profiles too, which run checks when it builds the fabric).
for f in bad_node.xml:5 bad_routing.xml:4 bad_profile.xml:5 bad_lfts.xml:4 \
	bad_mc_member.xml:4 bad_mc_mgid.xml:4 bad_mc_dup.xml:5 bad_mc_unlinked.xml:14; do
	"$IBFSIM" validate "$data/${f%:*}" >/dev/null 2>"$out/stderr"
	[ $? -eq 2 ] && grep -q "${f%:*}:${f#*:}: " "$out/stderr" && ok ||
		bad "validate ${f%:*}: $(cat "$out/stderr")"
done
"$IBFSIM" validate "$data/good_inline.xml" >"$out/stdout" 2>&1
[ $? -eq 0 ] && grep -q "valid scenario: 2 HCAs, 0 switches, 1 messages" \
	"$out/stdout" && ok || bad "validate good_inline.xml: $(cat "$out/stdout")"

# Usage errors.
"$IBFSIM" run >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "run without a file"
"$IBFSIM" run "$data/good_inline.xml" --bogus >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "unknown option"
"$IBFSIM" run "$data/good_inline.xml" --until 5 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--until without unit"
"$IBFSIM" run "$data/good_inline.xml" --model iwarp >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "model not built"

# The walking skeleton, in closed form (EDR 4x: 80 ps a byte; 2 m cables:
# 10,000 ps; switch: 100,000 ps; ideal HCAs). The WRITE Only packet is
# LRH 8 + BTH 12 + RETH 16 + 1000 + ICRC 4 + VCRC 2 = 1042 bytes.
#   leaves node1 at 0; header (LRH, 8 B) at the switch 640 + 10,000;
#   forwarded at 110,640; tail at node2 110,640 + 83,360 + 10,000 = 204,000.
# node2 frees its buffer at once and owes node1's switch port credits: the
# 6-byte flow-control packet goes first (480 ps), then the 30-byte ACK
# (LRH 8 + BTH 12 + AETH 4 + ICRC 4 + VCRC 2) at 204,480: header at the
# switch 204,480 + 640 + 10,000, forwarded at 315,120, tail at node1
# 315,120 + 2,400 + 10,000 = 327,520 ps: the completion.
"$IBFSIM" run "$data/skeleton_one.xml" --json "$out/a.json" >"$out/a.txt"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "skeleton: exit $rc"
grep -q '"latency_ns": {"min": 327.520, "p50": 327.520, "p99": 327.520, "max": 327.520' "$out/a.json" &&
	ok || bad "skeleton: completion is not 327,520 ps: $(grep latency "$out/a.json")"
grep -q '"completed": 1, "failed": 0, "incomplete": 0' "$out/a.json" && ok || bad "skeleton: not completed"
grep -q '"tx_bytes_ab": 1042' "$out/a.json" && ok || bad "skeleton: 1042 wire bytes"
grep -q 'latency (ns): min 327.520' "$out/a.txt" && ok || bad "skeleton: summary"

# A multicast member behind a failed link (mc_fault.xml): node3 sends 200
# SENDs with immediate (2 KiB + 60 B of headers, one every 1,638.4 ns)
# to node1, node5 and node7; at 100 us leaf1 loses its link to spine1,
# the tree's root. node5 and node7 get every copy; node1 gets none while
# the tree is broken (no copy is made for a down port), then the SM's
# re-sweep rebuilds the tree around the link (root spine2) and node1
# gets the rest: at least the ~61 sent before the fault and the ~79 sent
# after the re-sweep (which ends within 100 us), at their normal latency,
# so never more than the others' longest. Packets were lost: exit 1, as
# for UD messages lost to a fault.
"$IBFSIM" run "$data/mc_fault.xml" --json "$out/mf.json" >"$out/mf.txt" 2>&1
[ $? -eq 1 ] && ok || bad "mc_fault: exit $?"
d1=$(sed -n 's/.*"hca": "node1", "port": 1, "expected": 200, "delivered": \([0-9]*\),.*/\1/p' "$out/mf.json")
[ -n "$d1" ] && [ "$d1" -ge 140 ] && [ "$d1" -lt 200 ] && ok || bad "mc_fault: node1 delivered $d1"
for m in node5 node7; do
	grep -q "\"hca\": \"$m\", \"port\": 1, \"expected\": 200, \"delivered\": 200," "$out/mf.json" && ok ||
		bad "mc_fault: $m did not get all 200"
done
mx() { sed -n "s/.*\"hca\": \"$1\".*\"max\": \([0-9.]*\),.*/\1/p" "$out/mf.json"; }
# (They were equal until the sweeps sent OpenSM's SMPs; with the re-sweep
# ending at another point of the stream node1's longest is now the
# shorter, 512 ns against 518.48, which is what the test is about.)
[ -n "$(mx node1)" ] && awk -v a="$(mx node1)" -v b="$(mx node5)" \
	'BEGIN { exit !(a > 0 && a <= b) }' && ok ||
	bad "mc_fault: node1's longest latency $(mx node1), node5's $(mx node5)"
grep -q '"traps": 1' "$out/mf.json" && ok || bad "mc_fault: no re-sweep"

# Same seed, same results (wall time aside); data off, same timing.
"$IBFSIM" run "$data/skeleton_one.xml" --json "$out/b.json" >/dev/null
"$IBFSIM" run "$data/skeleton_one.xml" --no-data --json "$out/c.json" >/dev/null
for f in a b c; do grep -v '"wall_s"' "$out/$f.json" >"$out/$f.cmp"; done
cmp -s "$out/a.cmp" "$out/b.cmp" && ok || bad "two runs differ"
cmp -s "$out/a.cmp" "$out/c.cmp" && ok || bad "--no-data changes the results"

# Inline fabric, SENDs with receives posted by the program.
"$IBFSIM" run "$data/good_inline.xml" --json "$out/d.json" --csv "$out/csv" >/dev/null
[ $? -eq 0 ] && ok || bad "inline scenario failed"
grep -q '"completed": 3, "failed": 0, "incomplete": 0' "$out/d.json" && ok || bad "inline: 3 sends"
for t in messages flows links ports; do
	[ -s "$out/csv/$t.csv" ] && ok || bad "csv $t missing"
done
[ "$(wc -l <"$out/csv/messages.csv")" -eq 4 ] && ok || bad "csv: 3 messages"

# PortXmitData/PortRcvData in IBA's units (16.1.3.5: octets from the LRH
# to the ICRC, divided by 4): the 64 KiB RDMA WRITE of the default example
# is 16 packets at path MTU 4096, the first with a RETH: (8 + 12 + 16 +
# 4096 + 4) / 4 = 1034 words, then 15 of (8 + 12 + 4096 + 4) / 4 = 1030;
# its one ACK is (8 + 12 + 4 + 4) / 4 = 7. On the wire each also carries a
# 2-byte VCRC: 65,968 bytes out of node1 (ports.csv's byte columns).
"$IBFSIM" run "$top_srcdir/examples/rdma_write.xml" --csv "$out/w" >/dev/null
grep -q '^node1,1,sw1:1,65968,30,16,1,.*,16484,7,0,0,0,0$' "$out/w/ports.csv" &&
	ok || bad "ports.csv: node1 $(grep '^node1,' "$out/w/ports.csv")"
grep -q '^sw1,2,node2:1,65968,30,16,1,.*,16484,7,0,0,0,0$' "$out/w/ports.csv" &&
	ok || bad "ports.csv: sw1:2 $(grep '^sw1,2,' "$out/w/ports.csv")"

# A stop time ends the run: messages not done are incomplete, not failed.
"$IBFSIM" run "$data/stop.xml" --json "$out/s.json" >/dev/null
rc=$?
[ "$rc" -eq 0 ] && ok || bad "stop: exit $rc"
grep -q '"sim_time_ps": 100000000,' "$out/s.json" && ok || bad "stop: not at 100 us"
grep -q '"completed": 1, "failed": 0, "incomplete": 3' "$out/s.json" &&
	ok || bad "stop: $(grep completed "$out/s.json")"
"$IBFSIM" run "$data/stop.xml" --until 50us --json "$out/s.json" >/dev/null
grep -q '"sim_time_ps": 50000000,' "$out/s.json" && ok || bad "--until 50us"
# A stop time (or --until) is a bound: traffic that is over before it
# ends the run when it would end without one, not at the stop (the
# skeleton's write, the same JSON but for the wall time).
"$IBFSIM" run "$data/stop_late.xml" --json "$out/sl.json" >/dev/null
rc=$?
"$IBFSIM" run "$data/skeleton_one.xml" --until 1s --json "$out/su.json" >/dev/null
for f in sl su; do grep -v '"wall_s"' "$out/$f.json" >"$out/$f.cmp"; done
[ "$rc" -eq 0 ] && cmp -s "$out/a.cmp" "$out/sl.cmp" && ok ||
	bad "a late stop: exit $rc, $(grep sim_time_ps "$out/sl.json")"
cmp -s "$out/a.cmp" "$out/su.cmp" && ok ||
	bad "--until 1s: $(grep sim_time_ps "$out/su.json")"

# Deadlock: minhop on the ring closes a credit loop; the run stops, reports
# the cycle of (switch, port, VL) buffers and exits 1. updn does not.
"$IBFSIM" run "$data/ring_minhop.xml" --no-data --json "$out/r.json" >"$out/r.txt"
rc=$?
[ "$rc" -eq 1 ] && ok || bad "ring minhop: exit $rc, want 1"
grep -q '"deadlock": true' "$out/r.json" && ok || bad "ring minhop: no deadlock"
# The cycle runs round the ring through the five switches (its direction
# depends on the tie-breaks of the SM's discovery order).
cyc=$(sed -n 's/.*"deadlock_cycle": "\(.*\)".*/\1/p' "$out/r.json")
n=$(echo "$cyc" | tr ' ' '\n' | grep -c '^sw[1-5]:[0-9]*/VL0$')
[ "$n" -eq 6 ] && ok || bad "ring minhop: cycle '$cyc'"
# Its flows never finished: each runs from the end of the SM's sweep
# (151.215200 us: 109.499520 before the sweep sent OpenSM's SMPs) to the
# end of the run (300 us, the deadlock monitor's look, every 50 us, that
# found nothing moved since the last; 250 us before, the traffic starting
# earlier) and says so, in the JSON, the text and the CSV.
grep -q '"start_ns": 151215.200, "end_ns": 300000.000, "gbps": 0.000000, "unfinished": 1}' \
	"$out/r.json" && ok || bad "ring minhop: flows $(grep -m1 start_ns "$out/r.json")"
grep -q '^  node1 -> node2 write: 0 B, 151215.200 -> 300000.000 ns, 0.000 Gb/s (1 message not finished)$' \
	"$out/r.txt" && ok || bad "ring minhop: text $(grep -m1 'node1 ->' "$out/r.txt")"
"$IBFSIM" run "$data/ring_minhop.xml" --no-data --quiet --csv "$out/rcsv" >/dev/null 2>&1
sed -n 1,2p "$out/rcsv/flows.csv" | tr '\n' '|' | grep -qx \
	'src,dst,op,bytes,start_ps,end_ps,gbps,unfinished|node1,node2,write,0,151215200,300000000,0.000000,1|' &&
	ok || bad "ring minhop: flows.csv $(sed -n 1,2p "$out/rcsv/flows.csv")"
"$IBFSIM" run "$data/ring_updn.xml" --no-data --json "$out/u.json" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || bad "ring updn: exit $rc"
grep -q '"completed": 90, "failed": 0, "incomplete": 0' "$out/u.json" &&
	ok || bad "ring updn: $(grep completed "$out/u.json")"
grep -q '"deadlock": false' "$out/u.json" && ok || bad "ring updn: deadlock"

# An engine that fails falls back to minhop: the results name the engine
# that built the tables and why the other did not, in the text and JSON.
"$IBFSIM" run "$data/ring_ftree_fallback.xml" --no-data --json "$out/ff.json" \
	>"$out/ff.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || bad "ftree fallback: exit $rc"
grep -q '^  "routing": "minhop",$' "$out/ff.json" && ok ||
	bad "ftree fallback: $(grep routing "$out/ff.json")"
grep -q '^  "routing_fallback": "ftree failed: ERR AB03: ftree: ' "$out/ff.json" &&
	ok || bad "ftree fallback: no routing_fallback in the JSON"
grep -q '^routing: ftree failed: ERR AB03: .*; minhop built the tables instead$' \
	"$out/ff.txt" && ok || bad "ftree fallback: $(cat "$out/ff.txt")"
grep -q '^subnet manager: minhop on ' "$out/ff.txt" && ok ||
	bad "ftree fallback: the SM line does not name minhop"

# run_sc TAG FILE RC [ARGS]: runs scenario FILE into $out/TAG.txt and
# checks its exit status; expect TAG REGEX: that output has such a line.
run_sc() {
	tag=$1 file=$2 want=$3
	shift 3
	"$IBFSIM" run "$data/$file" --no-data "$@" >"$out/$tag.txt" 2>&1
	rc=$?
	[ "$rc" -eq "$want" ] && ok || bad "$tag: exit $rc, expected $want"
}
expect() {
	grep -q -- "$2" "$out/$1.txt" && ok ||
		bad "$1: no line '$2' in: $(head -8 "$out/$1.txt")"
}

# Eight data VLs and no buffer given: each port gets room for one packet of
# the MTU on each VL (fabric XML), so full-MTU packets leave (with 4096
# bytes a VL none did, and the messages never finished).
run_sc vls8 vls8.xml 0
expect vls8 '^messages: 2 completed, 0 failed$'
# 64 KiB a message: 16 packets of the MTU, and one ACK each.
expect vls8 '^packets: 34 sent, 0 dropped, 0 retransmitted$'

# UD traffic: the sender finds the destination's UD QP (one an HCA) and
# the three SENDs complete (before, the sender waited for ever for a QP
# published under another name).
run_sc ud ud_send.xml 0
expect ud '^messages: 3 completed, 0 failed$'
# Each completes when its packet has left node1 (UD has no ACK): 1024 +
# LRH 8 + BTH 12 + DETH 8 + ICRC 4 + VCRC 2 = 1058 bytes at 80 ps a byte
# (EDR 4x) = 84.640 ns, back to back; the flow, 3072 bytes in 253.920 ns,
# is 1024/1058 of the 100 Gb/s (it was 145 Gb/s when a UD SEND completed
# as its packet was built).
expect ud '^latency (ns): min 84.640  p50 169.280  p99 253.920  max 253.920  mean 169.280$'
expect ud 'node1 -> node2 send: 3072 B, 0.000 -> 253.920 ns, 96.786 Gb/s$'

# A link down then up: the SM sweeps again. The summary line's LFT blocks
# are the first sweep's (6 switches, one 64-LID block each), as its time
# and SMPs are; the last sweep, which changed no table, set none (it
# printed 0 as the first sweep's before).
run_sc resweep resweep_lft.xml 0 --json "$out/resweep.json"
expect resweep '^subnet manager: minhop on node1, in-band sweep [0-9.]* us ([0-9]* SMPs, 6 LFT blocks)$'
grep -q '"lft_blocks": 6, "last_sweep_lft_blocks": 0, ' \
	"$out/resweep.json" && ok ||
	bad "resweep: $(grep -o '"smps.*' "$out/resweep.json")"

# Failed messages are summed up by completion status, with libibverbs'
# words and numbers, and the run fails.
run_sc down hca_link_down.xml 1
expect down '^messages: 0 completed, 2 failed$'
expect down '^failed: 1 Work Request Flushed Error (status 5), 1 transport retry counter exceeded (status 12)$'
# The end: 8 timeouts of 4.096 us x 2^14 (536.870912 ms) after the ACK
# timer's last start, which is before the fault at 20 us (and after 0).
end=$(sed -n 's/^simulated \([0-9.]*\) us.*/\1/p' "$out/down.txt")
awk -v e="$end" 'BEGIN { d = e - 536870.912; exit !(d > 0 && d <= 20) }' &&
	ok || bad "down: the run ended at $end us, not 536870.912 us + (0, 20]"

# A spine fails: ftree routes the fat tree left without it (before, the
# switch the sweep no longer found stayed in the graph without links, ftree
# refused it, and minhop built the tables).
run_sc spine spine_down_ftree.xml 0
expect spine '^subnet manager: ftree on node1, '
expect spine '^messages: 16 completed, 0 failed$'
grep -q '^routing:' "$out/spine.txt" && bad "spine: $(grep '^routing:' "$out/spine.txt")" || ok
# The same with updn: the switch without links was its only root.
run_sc spineu spine_down_updn.xml 0
expect spineu '^subnet manager: updn on node1, '
expect spineu '^messages: 16 completed, 0 failed$'

# More messages a queue than max_qp_wr (32,768): queues as deep as that,
# receives topped up as they complete; before, setup failed on both.
run_sc deep deep_queues.xml 0
expect deep '^messages: 80000 completed, 0 failed$'

# sl_pair NAME JSON COMPLETED: scenario NAME.xml, whose programs take
# each path's SL from the SM (an SA PathRecord answer), completes its
# COMPLETED messages with no credit loop closing; NAME_sl0.xml, the same
# with SL 0 forced, puts every path on VL0 and deadlocks as under minhop.
# The results go to JSON.json and JSON0.json.
sl_pair() {
	"$IBFSIM" run "$data/$1.xml" --no-data --json "$out/$2.json" \
		>/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && grep -q '"deadlock": false' "$out/$2.json" && ok ||
		bad "$1: exit $rc"
	grep -q "\"completed\": $3, \"failed\": 0, \"incomplete\": 0" \
		"$out/$2.json" && ok || bad "$1: $(grep completed "$out/$2.json")"
	"$IBFSIM" run "$data/$1_sl0.xml" --no-data --json "$out/${2}0.json" \
		>/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && grep -q '"deadlock": true' "$out/${2}0.json" && ok ||
		bad "$1 with SL 0: exit $rc, no deadlock"
}
# A ring with two data VLs.
sl_pair ring_dfsssp df 90
# A 4x4 torus with 2 HCAs a switch and 4 data VLs, where the SLs differ per
# (source, destination) path (dfsssp's layers, 3 of them).
sl_pair torus_dfsssp dt 992
# lash on the same ring (which deadlocks under minhop, ring_minhop.xml)
# and torus: one lane (SL) a pair of switches, 2 lanes on each.
sl_pair ring_lash lr 90
sl_pair torus_lash lt 992
for f in lr lt; do
	grep -q '^  "routing": "lash",$' "$out/$f.json" && ok ||
		bad "$f.json: $(grep '"routing"' "$out/$f.json")"
done

# Packets and credits are conserved at the end of every run, stopped,
# deadlocked or complete.
for f in a s r u d df df0 dt dt0 lr lr0 lt lt0; do
	grep -q '"conservation": {"ok": true}' "$out/$f.json" && ok ||
		bad "$f.json: $(grep conservation "$out/$f.json")"
done

# OpenSM's own ftree tables (loaded by the file engine) and ours give the
# same run, to the byte.
"$IBFSIM" run "$data/route_file.xml" --no-data --json "$out/rf.json" >/dev/null
[ $? -eq 0 ] && ok || bad "routing=file run"
grep -q '"routing": "file"' "$out/rf.json" && ok || bad "routing=file not used"
"$IBFSIM" run "$data/route_ftree.xml" --no-data --json "$out/rt.json" >/dev/null
for f in rf rt; do grep -v '"wall_s"\|"routing"\|"scenario"\|"events"' "$out/$f.json" >"$out/$f.cmp"; done
cmp -s "$out/rf.cmp" "$out/rt.cmp" && ok || bad "OpenSM's ftree tables and ours differ"

# rate="8Gbps": 1000-byte writes offered one every 1,000 x 8 / 8e9 s =
# 1,000,000 ps, each completing 327,520 ps after its post (the skeleton's
# closed form: the link is idle again long before the next).
"$IBFSIM" run "$data/rate.xml" --csv "$out/rate" >/dev/null
for k in 0 1 2 3 4; do
	post=$((k * 1000000))
	grep -q "^node1,node2,write,1000,$post,$((post + 327520)),327520,0,0\$" \
		"$out/rate/messages.csv" && ok || bad "rate: message $k"
done
# qps: two 64 KiB writes posted together. On one QP they go one after the
# other (the first completes at the single write's 5,521,600 ps); on two
# QPs the HCA interleaves their packets, so the first ends near the second.
"$IBFSIM" run "$data/qps1.xml" --csv "$out/q1" >/dev/null
"$IBFSIM" run "$data/qps2.xml" --csv "$out/q2" >/dev/null
first1=$(sed -n '2s/^[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\([0-9]*\),.*/\1/p' "$out/q1/messages.csv")
first2=$(sed -n '2s/^[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\([0-9]*\),.*/\1/p' "$out/q2/messages.csv")
[ "$first1" = 5521600 ] && ok || bad "qps=1: first write done at $first1"
[ -n "$first2" ] && [ "$first2" -gt 9000000 ] && ok || bad "qps=2: first write done at $first2"

# LMC 1 and two QPs: the connections take the paths of node3's two LIDs
# (source path bits 0 and 1 to base LID + 0 and + 1), which ftree routes
# through different spines, so each of leaf1's up links carries one 1 MiB
# write (more than 1,048,576 bytes on the wire); on one LID, one carries
# both.
# carried TAG CSVDIR A B MIN: link A - B (a regex for B) of that run's
# links.csv carried more than MIN bytes from A.
carried() {
	b=$(sed -n "s/^$3,$4,\([0-9]*\),.*/\1/p" "$2/links.csv")
	[ -n "$b" ] && [ "$b" -gt "$5" ] && ok ||
		bad "$1: $3 carried '$b' bytes, want > $5"
}
"$IBFSIM" run "$data/lmc_paths.xml" --no-data --csv "$out/lmc" >/dev/null
for up in 3 4; do
	carried "lmc paths" "$out/lmc" "leaf1:$up" "spine[12]:1" 1048576
done

# QoS settings (OpenSM's qos_* values) on the link s1:3 - s2:1, which a
# (SL 0, VL 0) and b (SL 1, VL 1) share. VL 1 in the high-priority table
# with no limit: b takes as long as alone, but for a's first packet
# (a WRITE First of 4096 bytes: 4,138 wire bytes, 331,040 ps), whose
# header was taken first at the same picosecond and went before b's.
"$IBFSIM" run "$data/qos_high.xml" --no-data --csv "$out/qh" >/dev/null
"$IBFSIM" run "$data/qos_alone.xml" --no-data --csv "$out/qa" >/dev/null
lat() { sed -n "s/^$1,$2,write,[0-9]*,[0-9]*,[0-9]*,\([0-9]*\),0,0\$/\1/p" "$3"; }
hi=$(lat b cold "$out/qh/messages.csv") al=$(lat b cold "$out/qa/messages.csv")
[ -n "$hi" ] && [ -n "$al" ] && [ $((hi - al)) -eq $((4138 * 80)) ] && ok ||
	bad "qos high: b took $hi ps, alone $al ps: not one 4138-byte packet more"
# VL 1 with three times VL 0's weight in the low table (0:64,1:192, in
# 64-byte units; 4 KiB packets: one of VL 0's, three of VL 1's a turn),
# written at once (mode="instant"): while both send, b has 3/4 of the
# link, so its rate is 3/4 of its rate alone (within 0.5%).
"$IBFSIM" run "$data/qos_low.xml" --no-data --csv "$out/ql" >/dev/null
rate() { sed -n "s/^$1,$2,write,[0-9]*,[0-9]*,[0-9]*,\([0-9.]*\),0\$/\1/p" "$3"; }
awk -v lo="$(rate b cold "$out/ql/flows.csv")" -v al="$(rate b cold "$out/qa/flows.csv")" \
	'BEGIN { d = lo / (0.75 * al) - 1; exit !(lo != "" && d < 0.005 && d > -0.005) }' &&
	ok || bad "qos low: b at $(rate b cold "$out/ql/flows.csv") Gb/s, alone $(rate b cold "$out/qa/flows.csv")"
# The same under dfsssp and lash, which put routes on SLs themselves and,
# as OpenSM with -Q, take the VL arbitration tables (they were refused).
for e in dfsssp lash; do
	"$IBFSIM" run "$data/qos_low_$e.xml" --no-data --csv "$out/ql$e" >/dev/null
	awk -v lo="$(rate b cold "$out/ql$e/flows.csv")" -v al="$(rate b cold "$out/qa/flows.csv")" \
		'BEGIN { d = lo / (0.75 * al) - 1; exit !(lo != "" && d < 0.005 && d > -0.005) }' &&
		ok || bad "qos low $e: b at $(rate b cold "$out/ql$e/flows.csv") Gb/s, alone $(rate b cold "$out/qa/flows.csv")"
done

# VL arbitration at an HCA port: a writes to x on SL 0 and to y on SL 1
# at once, through one switch whose other links they do not share. With
# qos-vlarb-low="0:64,1:192" programmed into a's port too (by the SM's
# SMPs, or at once with mode="instant"), a's arbiter gives VL 1 three
# 4 KiB packets for one of VL 0's: the y write runs at 3/4 of its rate
# alone (within 0.5%); without QoS settings each VL sends one packet in
# turn and each write gets half.
within() { awk -v r="$1" -v al="$2" -v f="$3" \
	'BEGIN { d = r / (f * al) - 1; exit !(r != "" && d < 0.005 && d > -0.005) }'; }
"$IBFSIM" run "$data/hca_qos_alone.xml" --no-data --csv "$out/hqa" >/dev/null
al=$(rate a y "$out/hqa/flows.csv")
for f in hca_qos hca_qos_instant; do
	"$IBFSIM" run "$data/$f.xml" --no-data --csv "$out/$f" >/dev/null
	r=$(rate a y "$out/$f/flows.csv")
	within "$r" "$al" 0.75 && ok || bad "$f: a->y at $r Gb/s, alone $al"
done
"$IBFSIM" run "$data/hca_qos_none.xml" --no-data --csv "$out/hqn" >/dev/null
for d in x y; do
	r=$(rate a $d "$out/hqn/flows.csv")
	within "$r" "$al" 0.5 && ok || bad "hca_qos_none: a->$d at $r Gb/s, alone $al"
done

# An HCA whose only link is on its port 2 sends and receives there (RC
# and UD): the traffic takes each HCA's first port with a LID, not port 1.
run_sc port2 port2.xml 0
expect port2 '^messages: 2 completed, 0 failed$'
# Both ports of each HCA on one subnet: four 4 MiB writes on four QPs
# take ports 1, 2, 1, 2, so each of a's links carries two of them (more
# than 8 MiB on the wire); on port 1 alone the other carries only SMPs.
"$IBFSIM" run "$data/dual_port.xml" --no-data --csv "$out/dp" >/dev/null
for p in 1 2; do
	carried "dual port" "$out/dp" "a:$p" "s$p:1" 8388608
done
# Ids may hold a comma or a quote: the CSV files quote such fields
# (RFC 4180), so every row has its header's columns and the ids read back.
if command -v python3 >/dev/null 2>&1; then
	"$IBFSIM" run "$data/csv_ids.xml" --no-data --csv "$out/ci" >/dev/null
	python3 - "$out/ci" <<'PY' && ok || bad "csv ids: rows or ids differ"
import csv, sys
for t in ("messages", "flows", "links", "ports"):
    rows = list(csv.reader(open("%s/%s.csv" % (sys.argv[1], t))))
    assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows), t
links = list(csv.reader(open(sys.argv[1] + "/links.csv")))[1:]
assert [r[:2] for r in links] == [['a"x:1', 's,1:1'], ['bc:1', 's,1:2']], links
PY
fi
# With no host named, the SM runs on the first HCA that has a link.
run_sc smhost sm_default_host.xml 0
expect smhost '^subnet manager: minhop on a, in-band sweep'

# Partitions (pkey="", partitions="FILE"): refused before anything runs,
# by run and validate alike, at the scenario's line (a file that cannot be
# read, a pair that cannot talk in its partition, as the SA would give no
# path) or at the partitions file's own line (a mistake in it).
while IFS='|' read -r file where line phrase; do
	for cmd in run validate; do
		"$IBFSIM" $cmd "$data/$file" >"$out/stdout" 2>"$out/stderr"
		rc=$?
		msg=$(cat "$out/stderr")
		[ "$rc" -eq 2 ] || { bad "$cmd $file: exit $rc, want 2"; continue; }
		case "$msg" in
		"ibfsim: $data/$where:$line: "*"$phrase"*) ok ;;
		*) bad "$cmd $file: got '$msg', want $where:$line '$phrase'" ;;
		esac
		[ -s "$out/stdout" ] && bad "$cmd $file: printed results"
	done
done <<'LIST'
bad_pkey_nofile.xml|bad_pkey_nofile.xml|4|partitions: cannot read
bad_pkey_conf.xml|pkeys/bad_member.conf|3|unknown member 'node9'
bad_pkey_limited.xml|bad_pkey_limited.xml|7|'node2' and 'node3' are both limited members of partition 0x0001
bad_pkey_member.xml|bad_pkey_member.xml|7|'node1' port 1 is not a member of partition 0x0002
bad_pkey_default.xml|bad_pkey_default.xml|6|both limited members of partition 0x7fff
bad_pkey_pattern.xml|bad_pkey_pattern.xml|7|the pattern may pair them
bad_pkey_ud.xml|bad_pkey_ud.xml|6|qp="ud" takes the default partition only
bad_pkey_value.xml|bad_pkey_value.xml|6|pkey="0x8000": a P_Key
bad_pkey_without.xml|bad_pkey_without.xml|6|only the default 0x7fff
LIST

echo "run_scenarios: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
