#!/bin/sh
# SPDX-License-Identifier: MIT
# <collective>: a ring allreduce on platforms/star.xml (4 ideal HCAs on one
# switch, EDR 4x: 80 ps a byte, 2 m cables: 10 ns, 100 ns of switch
# latency) with its first step at the closed-form picosecond and every
# later message posted at exactly the arrival of the one it waits for; a
# binomial broadcast's tree and its runs back to back; nccl-tests' figures
# in the summary, the JSON and collectives.csv; and each mistake in a
# <collective> refused at its line (exit 2), by run and by validate.
#
# make check sets IBFSIM and top_srcdir.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
. "$top_srcdir/tests/collectives_lib.sh"

# --- Ring allreduce of 64 KiB on 4 HCAs: 2 x 3 steps of 16 KiB chunks.
scenario ar '<collective kind="allreduce" size="64KiB"/>'
"$IBFSIM" run "$out/ar.xml" --quiet --csv "$out/ar" --json "$out/ar.json" \
	>"$out/ar.out" || bad "allreduce: exit $?"
m="$out/ar/messages.csv"
n=$(awk 'END { print NR - 1 }' "$m")
[ "$n" = 24 ] && ok || bad "allreduce: $n messages, not 2 x 3 steps x 4"
# Every member sends its 6 chunks to its successor in the ring.
awk -F, 'NR > 1 && !($1 == "node1" && $2 == "node2" ||
	$1 == "node2" && $2 == "node3" || $1 == "node3" && $2 == "node4" ||
	$1 == "node4" && $2 == "node1") || NR > 1 && $4 != 16384 { exit 1 }' \
	"$m" && ok || bad "allreduce: a message off the ring or not 16 KiB"
# Step 0, posted at 0: WRITE First (RETH, 4096 B: 4138 wire bytes), two
# Middles (4122), Last with ImmDt (4126): 16508 bytes. Its last byte
# arrives after the LRH (8 B), the cable, the switch's 100 ns, the 16508
# bytes and the cable again, plus 3 FCPs (6 B) that the sender's link
# carries between them for the chunk it receives meanwhile from its
# predecessor: (8 + 16508 + 18) x 80 + 2 x 10000 + 100000 = 1442720 ps.
a0=$(awk -F, 'NR == 2 { print $9 }' "$m")
[ "$a0" = 1442720 ] && ok || bad "allreduce: step 0 arrived at $a0 ps"
# Rows are step by step, members in order: row 4s + i + 2 is member i's
# step s; it waits for member i - 1's step s - 1 (row 4(s-1) + (i+3)%4
# + 2) and is posted at the picosecond that arrived. On the star every
# member's chunk arrives at the same time; node2's cable of 200 m (1 us)
# makes them differ, so that only the right one matches.
sed 's|<link a="node2:1" b="sw1:2"/>|<link a="node2:1" b="sw1:2" cable="200m"/>|' \
	"$top_srcdir/platforms/star.xml" >"$out/star200.xml"
scenario ar2 '<collective kind="allreduce" size="64KiB"/>' "$out/star200.xml"
"$IBFSIM" run "$out/ar2.xml" --quiet --csv "$out/ar2" >/dev/null ||
	bad "allreduce, 200 m: exit $?"
awk -F, 'NR > 1 { post[NR - 2] = $5; arr[NR - 2] = $9 }
	END {
		for (k = 4; k < 24; k++) {
			s = int(k / 4); i = k % 4
			d = 4 * (s - 1) + (i + 3) % 4
			if (post[k] != arr[d] || arr[d] == 0) exit 1
			if (arr[k - 4] == arr[d] && i != 0) n++
		}
		exit n == 15
	}' "$out/ar2/messages.csv" && ok ||
	bad "allreduce: a message not posted at its arrival"
# The run ends at the last arrival or completion; algbw = 64 KiB / that.
end=$(awk -F, 'NR > 1 { e = $6 > $9 ? $6 : $9; if (e > m) m = e }
	END { print m }' "$m")
awk -F, -v e="$end" 'NR == 2 && !($1 == "allreduce" && $2 == "ring" &&
	$3 == 4 && $4 == 65536 && $6 == 0 && $7 == e && $8 == 24 &&
	$9 == 0 && $10 == 0 &&
	($11 - 65536 / e * 1000) ^ 2 < 1e-10 &&
	($12 - $11 * 1.5) ^ 2 < 1e-10) { exit 1 }' "$out/ar/collectives.csv" &&
	ok || bad "allreduce: collectives.csv $(sed -n 2p "$out/ar/collectives.csv")"
grep -q '^collective allreduce (ring), 4 HCAs, 65536 B x 1: ' "$out/ar.out" &&
	ok || bad "allreduce: summary $(grep collective "$out/ar.out")"
grep -q '"collectives": \[' "$out/ar.json" &&
	grep -q '"kind": "allreduce", "algorithm": "ring", "hcas": 4' \
		"$out/ar.json" && ok || bad "allreduce: no collective in the JSON"
# The same with data off: the same times.
"$IBFSIM" run "$out/ar.xml" --quiet --no-data --csv "$out/ar-nd" \
	>/dev/null || bad "allreduce --no-data: exit $?"
cmp -s "$m" "$out/ar-nd/messages.csv" && ok ||
	bad "allreduce: --no-data changes the times"

# --- Binomial broadcast from node3 (rank 2), twice: node3 -> node4, then
# node3 -> node1 and node4 -> node2 (relative ranks 0 -> 1; 0 -> 2,
# 1 -> 3). The root sends to its second child once the first send has
# completed (blocking sends), node4 forwards once node3's message
# arrived, and the second run's root starts when its first run's last
# message completed.
scenario bc '<collective kind="broadcast" size="8KiB" root="node3" count="2"/>'
"$IBFSIM" run "$out/bc.xml" --quiet --csv "$out/bc" >"$out/bc.out" ||
	bad "broadcast: exit $?"
m="$out/bc/messages.csv"
edges=$(awk -F, 'NR > 1 { printf "%s>%s ", $1, $2 }' "$m")
want="node3>node4 node3>node1 node4>node2 node3>node4 node3>node1 node4>node2 "
[ "$edges" = "$want" ] && ok || bad "broadcast: edges '$edges'"
awk -F, 'NR > 1 { p[NR-2] = $5; d[NR-2] = $6; a[NR-2] = $9 }
	END {
		if (p[0] != 0 || p[1] != d[0]) exit 1 # the root, child by child
		if (p[2] != a[0]) exit 1              # node4 after its data
		if (p[3] != d[1]) exit 1              # run 2: root, after run 1
		if (p[5] != a[3] || a[3] < d[2]) exit 1
	}' "$m" && ok || bad "broadcast: posts $(cut -d, -f5,6,9 "$m" | tr '\n' ' ')"
grep -q '^collective broadcast (binomial), 4 HCAs, 8192 B x 2: ' \
	"$out/bc.out" && ok || bad "broadcast: summary"

# --- Pairwise alltoall: at step s member i sends its 16 KiB chunk to
# i + s; step s + 1 waits for its step-s send to complete and for the
# step-s chunk from i - s to arrive (MPI_Sendrecv): on node2's slow
# cable the two differ.
scenario a2a '<collective kind="alltoall" size="64KiB"/>' "$out/star200.xml"
"$IBFSIM" run "$out/a2a.xml" --quiet --csv "$out/a2a" >"$out/a2a.out" ||
	bad "alltoall: exit $?"
m="$out/a2a/messages.csv"
edges=$(awk -F, 'NR > 1 { sub("node", "", $1); sub("node", "", $2);
	printf "%s%s ", $1, $2 }' "$m")
[ "$edges" = "12 23 34 41 13 24 31 42 14 21 32 43 " ] && ok ||
	bad "alltoall: edges '$edges'"
awk -F, 'NR > 1 { k = NR - 2; p[k] = $5; d[k] = $6; a[k] = $9; b[k] = $4 }
	END {
		for (k = 4; k < 12; k++) {
			s = int(k / 4); i = k % 4
			own = k - 4                       # i at step s - 1
			from = 4 * (s - 1) + (i + 4 - s) % 4 # to i at s - 1
			w = d[own] > a[from] ? d[own] : a[from]
			if (p[k] != w || b[k] != 16384) exit 1
			if (d[own] != a[from]) diff++
		}
		exit !diff
	}' "$m" && ok || bad "alltoall: posts $(cut -d, -f5,6,9 "$m" | tr '\n' ' ')"
grep -q '^collective alltoall (pairwise), 4 HCAs, 65536 B x 1: ' \
	"$out/a2a.out" && ok || bad "alltoall: summary"

# --- Mistakes, each at its line (6), by run and validate.
refused <<'LIST'
<collective size="1MiB"/>|<collective> needs a 'kind' attribute
<collective kind="allreduce"/>|<collective> needs a 'size' attribute
<collective kind="gather" size="1MiB"/>|kind="gather" is not one of: allreduce, reduce-scatter, allgather, broadcast, alltoall
<collective kind="alltoall" size="2B"/>|an alltoall of 4 HCAs splits size in 4 chunks: it needs at least 4 B
<collective kind="allreduce" size="1MiB" root="node1"/>|root applies only to kind="broadcast"
<collective kind="broadcast" size="1MiB" hcas="node1,node2" root="node3"/>|root="node3" is not one of the collective's HCAs
<collective kind="allreduce" size="1MiB" hcas="node1,sw1"/>|hcas: 'sw1' is not an HCA of the fabric
<collective kind="allreduce" size="1MiB" hcas="node1,node2,node1"/>|hcas: 'node1' is listed twice
<collective kind="allreduce" size="1MiB" hcas="node2"/>|a collective needs at least two HCAs
<collective kind="allreduce" size="3B"/>|a ring of 4 HCAs splits size in 4 chunks: it needs at least 4 B
<collective kind="allreduce" size="1MiB" op="write"/>|a collective's op is write-imm or send-imm
<collective kind="allgather" size="1MiB" qp="ud"/>|a collective runs over rc or uc, not ud
<collective kind="broadcast" size="4GiB"/>|a message is at most 2 GiB
<collective kind="allreduce" size="1MiB" count="0"/>|count must be between 1 and
<collective kind="allreduce" size="1MiB" bogus="1"/>|<collective> has no attribute 'bogus'
LIST

# --- A collective runs on the default partition, where
# examples/partitions.conf leaves node2-node4 limited members: two of
# them cannot talk, so it is refused at its line, as a message would be.
cat >"$out/pk.xml" <<EOF
<?xml version="1.0"?>
<scenario version="1" name="pk">
  <fabric file="$top_srcdir/platforms/star.xml"/>
  <subnet-manager partitions="$top_srcdir/examples/partitions.conf"/>
  <traffic>
    <collective kind="allreduce" size="64KiB" hcas="node2,node3,node4"/>
  </traffic>
</scenario>
EOF
for cmd in run validate; do
	msg=$("$IBFSIM" $cmd "$out/pk.xml" 2>&1 >/dev/null)
	rc=$?
	case "$rc:$msg" in
	"2:ibfsim: $out/pk.xml:6: 'node2' and 'node3' are both limited members of partition 0x7fff"*) ok ;;
	*) bad "$cmd partitions: exit $rc, '$msg'" ;;
	esac
done

echo "collectives: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
