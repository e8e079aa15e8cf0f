#!/bin/sh
# SPDX-License-Identifier: MIT
# <collective algorithm=>: recursive doubling (with MPICH's fold for 3, 5
# and 6 members), Rabenseifner's allreduce, the tree allreduce (binomial
# reduce and broadcast) and the pipelined broadcast,
# each message by message (edges and sizes) on platforms/star.xml and
# stars of 3 to 8 HCAs, every post at exactly the time of what it waits
# for on a star whose node2 has a 200 m cable (so that the times
# differ); reduce-rate's wait after an arrival to the picosecond; the
# algorithm in the summary, JSON and CSV; and each misuse refused at its
# line by run and validate (exit 2).
#
# make check sets IBFSIM and top_srcdir.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
. "$top_srcdir/tests/collectives_lib.sh"
stars

# steps NAME "ROWS A STEP ..." "REDUCING STEPS" RATE_GBPS SENDRECV:
# checks every post against what it waits for, from the structure alone:
# a member's step waits for the last message that arrived at it in an
# earlier step (plus, at a reducing step and a rate, its bytes x 8 / rate,
# rounded up to the ps) and, if SENDRECV, for its own last send's
# completion (MPI_Sendrecv); a member that waits for nothing posts at 0.
# Prints how many posts had both and the two times differed.
steps() {
	awk -F, -v steps="$2" -v red=" $3 " -v rate="$4" -v sr="$5" '
	NR > 1 { k = NR - 2; s[k] = $1; t[k] = $2; b[k] = $4; p[k] = $5
		d[k] = $6; a[k] = $9 }
	END {
		n = split(steps, len, " "); k = 0
		for (st = 1; st <= n; st++) {
			first = k
			for (j = 0; j < len[st]; j++) {
				own = -1; from = -1
				for (q = 0; q < first; q++) {
					if (s[q] == s[k]) own = q
					if (t[q] == s[k]) from = q
				}
				wa = -1; wd = -1
				if (from >= 0) {
					wa = a[from]
					if (rate > 0 && index(red, " " (st - 1) " ")) {
						x = b[from] * 8000
						r = int(x / rate)
						if (r * rate < x) r++
						wa += r
					}
				}
				if (sr && own >= 0) wd = d[own]
				w = wa > wd ? wa : wd
				if (w < 0) w = 0
				if (p[k] != w) { print "row " k ": " p[k] " != " w; bad = 1 }
				if (wa >= 0 && wd >= 0 && wa != wd) diff++
				k++
			}
		}
		if (k != NR - 1) { print k " rows of " NR - 1; bad = 1 }
		if (bad) exit 1
		print diff + 0
	}' "$out/$1/messages.csv"
}

# --- Recursive doubling, 4 HCAs (power of two): log2 4 = 2 steps of the
# whole buffer; step 0 with i XOR 1 (1<>2, 3<>4), step 1 with i XOR 2
# (1<>3, 2<>4), ranks in order at each step.
run rd4 '<collective kind="allreduce" size="64KiB" algorithm="recursive-doubling"/>'
e="1>2:65536 2>1:65536 3>4:65536 4>3:65536 1>3:65536 2>4:65536 3>1:65536 4>2:65536 "
[ "$(edges rd4)" = "$e" ] && ok || bad "rd4: edges $(edges rd4)"
run rd4s '<collective kind="allreduce" size="64KiB" algorithm="recursive-doubling"/>' \
	"$out/star-200.xml"
d=$(steps rd4s "4 4" "" 0 1) && [ "$d" -gt 0 ] && ok || bad "rd4, 200 m: $d"

# --- 3 HCAs: p = 2, r = 1. Rank 0 (node1) folds into rank 1 (node2);
# new ranks 0, 1 = node2, node3 exchange once; node2 sends the result
# back to node1. Steps: fold, exchange, back.
run rd3 '<collective kind="allreduce" size="64KiB" algorithm="recursive-doubling" hcas="node1,node2,node3"/>' \
	"$out/star-200.xml"
[ "$(edges rd3)" = "1>2:65536 2>3:65536 3>2:65536 2>1:65536 " ] && ok ||
	bad "rd3: edges $(edges rd3)"
d=$(steps rd3 "1 2 1" "" 0 1) && ok || bad "rd3: $d"
# The same with reduce-rate="3Gbps": node2 reduces the folded buffer
# before its exchange and the exchanged one before it sends back, each
# 65536 x 8 / 3 Gb/s = 174762666.67 ps, rounded up to 174762667.
run rd3r '<collective kind="allreduce" size="64KiB" algorithm="recursive-doubling" hcas="node1,node2,node3" reduce-rate="3Gbps"/>' \
	"$out/star-200.xml"
d=$(steps rd3r "1 2 1" "1 2" 3 1) && ok || bad "rd3, reduce-rate: $d"
p1=$(awk -F, 'NR == 3 { print $5 }' "$out/rd3r/messages.csv")
a0=$(awk -F, 'NR == 2 { print $9 }' "$out/rd3r/messages.csv")
[ "$p1" = $((a0 + 174762667)) ] && ok ||
	bad "rd3, reduce-rate: node2 posted at $p1, fold arrived at $a0"

# --- 5 HCAs: p = 4, r = 1: node1 folds into node2; new ranks 0..3 =
# node2..node5 exchange with XOR 1 (2<>3, 4<>5), then XOR 2 (2<>4,
# 3<>5); node2 sends back to node1. With reduce-rate="3Gbps" (4096 B:
# 10922667 ps, far above a message's time), node2's send back waits for
# its last reduction, not its own send's completion.
run rd5 '<collective kind="allreduce" size="4KiB" algorithm="recursive-doubling" hcas="node1,node2,node3,node4,node5" reduce-rate="3Gbps"/>' \
	"$out/star8-200.xml"
e=$(edges rd5 | sed 's/:4096//g')
[ "$e" = "1>2 2>3 3>2 4>5 5>4 2>4 3>5 4>2 5>3 2>1 " ] && ok || bad "rd5: $e"
d=$(steps rd5 "1 4 4 1" "1 2 3" 3 1) && ok || bad "rd5: $d"
p=$(awk -F, 'NR == 11 { print $5 }' "$out/rd5/messages.csv")
a=$(awk -F, 'NR == 9 { print $9 }' "$out/rd5/messages.csv")
[ "$p" = $((a + 10922667)) ] && ok || bad "rd5: sent back at $p, not $a + R"
# --- 6 HCAs: p = 4, r = 2: node1 into node2, node3 into node4; new ranks
# 0..3 = node2, node4, node5, node6: XOR 1 (2<>4, 5<>6), XOR 2 (2<>5,
# 4<>6); node2 back to node1, node4 to node3.
run rd6 '<collective kind="allreduce" size="4KiB" algorithm="recursive-doubling" hcas="node1,node2,node3,node4,node5,node6" reduce-rate="7Gbps"/>' \
	"$out/star8-200.xml"
e=$(edges rd6 | sed 's/:4096//g')
[ "$e" = "1>2 3>4 2>4 4>2 5>6 6>5 2>5 4>6 5>2 6>4 2>1 4>3 " ] && ok ||
	bad "rd6: $e"
d=$(steps rd6 "2 4 4 2" "1 2 3" 7 1) && ok || bad "rd6, reduce-rate: $d"

# --- Rabenseifner, 4 HCAs, 65539 B: chunks of 16385, 16385, 16385 and
# 16384 B (size / 4, the first size mod 4 a byte more). Halving with
# XOR 1: the lower rank keeps chunks 0-1 and sends 2-3 (32769 B), the
# upper sends 0-1 (32770 B); with XOR 2 within the kept pair: ranks 0, 2
# hold 0-1 (0 keeps 0, sends 1; 2 sends 0), ranks 1, 3 hold 2-3 (1 sends
# 3: 16384 B; 3 sends 2). Doubling: XOR 2, each sends the chunk it kept
# (0, 2, 1, 3), then XOR 1, the pair it kept at the first halving.
run rab '<collective kind="allreduce" size="65539B" algorithm="rabenseifner"/>' \
	"$out/star-200.xml"
e="1>2:32769 2>1:32770 3>4:32769 4>3:32770 1>3:16385 2>4:16384 3>1:16385 4>2:16385 "
e="${e}1>3:16385 2>4:16385 3>1:16385 4>2:16384 1>2:32770 2>1:32769 3>4:32770 4>3:32769 "
[ "$(edges rab)" = "$e" ] && ok || bad "rab: edges $(edges rab)"
d=$(steps rab "4 4 4 4" "" 0 1) && [ "$d" -gt 0 ] && ok || bad "rab: $d"
# Reducing steps: the second halving (what the first brought) and the
# first doubling (the last halving's chunk); not the last doubling.
run rabr '<collective kind="allreduce" size="65539B" algorithm="rabenseifner" reduce-rate="3Gbps"/>' \
	"$out/star-200.xml"
d=$(steps rabr "4 4 4 4" "1 2" 3 1) && ok || bad "rab, reduce-rate: $d"
# 8 HCAs: halving sizes 4, 2, 1 chunks of 1 KiB; doubling 1, 2, 4.
run rab8 '<collective kind="allreduce" size="8KiB" algorithm="rabenseifner"/>' \
	"$out/star8.xml"
sz=$(awk -F, 'NR > 1 && (NR - 2) % 8 == 0 { printf "%s ", $4 }' \
	"$out/rab8/messages.csv")
[ "$sz" = "4096 2048 1024 1024 2048 4096 " ] && ok || bad "rab8: $sz"
pairs=$(awk -F, 'NR > 1 && $1 == "node6" { sub("node", "", $2); printf "%s", $2 }' \
	"$out/rab8/messages.csv")
[ "$pairs" = "582285" ] && ok || bad "rab8: node6 sends to $pairs"

# --- Ring with reduce-rate: steps 1 to 3 of the allreduce send what they
# reduced of the last step's 16 KiB chunk (the 3rd, allgather's first,
# the chunk whose reduction completed); the allgather's later steps wait
# for the arrival alone. The reduce-scatter alone: steps 1 and 2.
run rr '<collective kind="allreduce" size="64KiB" reduce-rate="3Gbps"/>' \
	"$out/star-200.xml"
d=$(steps rr "4 4 4 4 4 4" "1 2 3" 3 0) && ok || bad "ring, reduce-rate: $d"
d=$(steps rr "4 4 4 4 4 4" "1 2 3 4" 3 0) && bad "ring: step 4 reduces" || ok
run rs '<collective kind="reduce-scatter" size="64KiB" reduce-rate="100Gbps"/>' \
	"$out/star-200.xml"
d=$(steps rs "4 4 4" "1 2" 100 0) && ok || bad "reduce-scatter, reduce-rate: $d"

# --- Pipelined broadcast from node2 in 4 pieces of 10 B (3, 3, 2, 2):
# each piece down the chain node2 > node3 > node4 > node1; the root
# posts every piece at 0, the others forward each at its arrival.
run pl '<collective kind="broadcast" size="10B" algorithm="pipeline" chunks="4" root="node2" count="2"/>' \
	"$out/star-200.xml"
e="2>3:3 3>4:3 4>1:3 2>3:3 3>4:3 4>1:3 2>3:2 3>4:2 4>1:2 2>3:2 3>4:2 4>1:2 "
[ "$(edges pl | cut -d' ' -f1-12) " = "$e" ] && ok || bad "pipeline: $(edges pl)"
# Rows go piece by piece, hop v (sender: relative rank v) within. Run 2
# (rows 12..23): the root's first piece after its last send of run 1
# (row 9) completed, the others' first also after their run 1: its last
# piece arrived (row 8 + v) and their own last send (row 9 + v)
# completed. The root's later pieces follow its first at once.
awk -F, 'NR > 1 { k = NR - 2; p[k] = $5; d[k] = $6; a[k] = $9 }
	END {
		for (r = 0; r < 2; r++)
		for (k = 12 * r; k < 12 * r + 12; k++) {
			v = k % 3; pc = int((k % 12) / 3)
			# The root posts its pieces in order, at once.
			w = v ? a[k - 1] : pc ? p[k - 3] : 0
			if (r && !pc && !v) w = d[9]
			if (r && !pc && v && d[9 + v] > w) w = d[9 + v]
			if (r && !pc && v && a[8 + v] > w) w = a[8 + v]
			if (p[k] != w) exit 1
		}
	}' "$out/pl/messages.csv" && ok ||
	bad "pipeline: posts $(cut -d, -f5,6,9 "$out/pl/messages.csv" | tr '\n' ' ')"

# --- Tree, 5 HCAs (ranks 0..4 = node1..node5): the binomial reduction,
# rank v to v - lowbit(v) after its children v + 1, v + 2, ... (below
# v + lowbit(v)), by rounds: 2>1, 4>3 (lowbit 1); 3>1 once 4>3 arrived
# and was reduced (lowbit 2); 5>1 (lowbit 4, no child). Then the
# binomial broadcast from node1: 1>2 once node1 has received and reduced
# 2>1, 3>1, 5>1 in turn; 1>3 and 1>5 as the root's sends complete; 2>4
# when 1>2 arrived and node2's own send completed. 4 KiB at 100 Gb/s:
# R = 4096 x 8 / 100 = 327.68 ns.
run tree '<collective kind="allreduce" size="4KiB" algorithm="tree" hcas="node1,node2,node3,node4,node5" reduce-rate="100Gbps"/>' \
	"$out/star8-200.xml"
e=$(edges tree | sed 's/:4096//g')
[ "$e" = "2>1 4>3 3>1 5>1 1>2 1>3 2>4 1>5 " ] && ok || bad "tree: $e"
awk -F, -v R=327680 'NR > 1 { k = NR - 2; p[k] = $5; d[k] = $6; a[k] = $9 }
	function max(x, y) { return x > y ? x : y }
	END {
		x = max(max(a[0] + R, a[2]) + R, a[3]) + R
		w = "0 0 " a[1] + R " 0 " x " " d[4] " " max(a[4], d[0]) " " d[5]
		split(w, v, " ")
		for (k = 0; k < 8; k++) if (p[k] != v[k + 1]) exit 1
		# The chain is in turn: max(arrivals) + R would differ.
		if (x == max(max(a[0], a[2]), a[3]) + R) exit 1
	}' "$out/tree/messages.csv" && ok ||
	bad "tree: posts $(cut -d, -f5,6,9 "$out/tree/messages.csv" | tr '\n' ' ')"

# Twice on 4 HCAs (rows 0-5: 2>1 4>3 3>1 1>2 1>3 2>4, then 6-11): a
# member's run 2 starts when its run 1 is over: its last send completed
# and its last message arrived (node2: 1>2 arrived, 2>4 completed).
run tree2 '<collective kind="allreduce" size="4KiB" algorithm="tree" reduce-rate="100Gbps" count="2"/>' \
	"$out/star-200.xml"
awk -F, -v R=327680 'NR > 1 { k = NR - 2; p[k] = $5; d[k] = $6; a[k] = $9 }
	function max(x, y) { return x > y ? x : y }
	END {
		w[0] = 0; w[1] = 0; w[2] = a[1] + R; w[3] = max(a[0] + R, a[2]) + R
		w[4] = d[3]; w[5] = max(a[3], d[0])
		w[6] = max(a[3], d[5]); w[7] = max(a[5], d[1])
		w[8] = max(max(a[7] + R, a[4]), d[2])
		w[9] = max(max(a[6] + R, a[8]) + R, d[4])
		w[10] = d[9]; w[11] = max(a[9], d[6])
		for (k = 0; k < 12; k++) if (p[k] != w[k]) exit 1
	}' "$out/tree2/messages.csv" && ok ||
	bad "tree, twice: posts $(cut -d, -f5,6,9 "$out/tree2/messages.csv" | tr '\n' ' ')"

# The tree and Rabenseifner's with data off: the same times.
for n in tree2 rabr; do
	"$IBFSIM" run "$out/$n.xml" --quiet --no-data --csv "$out/$n-nd" \
		>/dev/null || bad "$n --no-data: exit $?"
	cmp -s "$out/$n/messages.csv" "$out/$n-nd/messages.csv" && ok ||
		bad "$n: --no-data changes the times"
done

# --- The algorithm used, in the summary, the JSON and collectives.csv;
# busbw stays nccl-tests' allreduce factor, 2(n-1)/n = 1.5.
grep -q '^collective allreduce (rabenseifner), 4 HCAs, 65539 B x 1: ' \
	"$out/rab.out" && ok || bad "rab: summary"
grep -q '"kind": "allreduce", "algorithm": "recursive-doubling", "hcas": 6' \
	"$out/rd6.json" && ok || bad "rd6: JSON"
awk -F, 'NR == 2 && !($1 == "broadcast" && $2 == "pipeline" && $3 == 4 &&
	$12 == $11) { exit 1 }' "$out/pl/collectives.csv" && ok ||
	bad "pipeline: collectives.csv"
awk -F, 'NR == 2 && !($2 == "rabenseifner" && ($12 - 1.5 * $11) ^ 2 < 1e-10 &&
	$11 > 0) { exit 1 }' "$out/rab/collectives.csv" && ok ||
	bad "rab: collectives.csv"

# --- Mistakes, each at its line (6), by run and validate.
refused <<'LIST'
<collective kind="allreduce" size="1MiB" algorithm="tree2"/>|algorithm="tree2" is not one of: ring, binomial, pairwise, recursive-doubling, rabenseifner, pipeline, tree
<collective kind="allreduce" size="1MiB" algorithm="pipeline"/>|algorithm="pipeline" does not run allreduce (it runs: ring, recursive-doubling, rabenseifner, tree, double-tree)
<collective kind="broadcast" size="1MiB" algorithm="ring"/>|algorithm="ring" does not run broadcast (it runs: binomial, pipeline)
<collective kind="broadcast" size="1MiB" algorithm="tree"/>|algorithm="tree" does not run broadcast
<collective kind="allreduce" size="4GiB" algorithm="tree"/>|a message is at most 2 GiB
<collective kind="allgather" size="1MiB" algorithm="recursive-doubling"/>|does not run allgather (it runs: ring)
<collective kind="allreduce" size="1MiB" algorithm="rabenseifner" hcas="node1,node2,node3"/>|algorithm="rabenseifner" needs a power of two of HCAs, not 3
<collective kind="allreduce" size="3B" algorithm="rabenseifner"/>|rabenseifner of 4 HCAs splits size in 4 chunks: it needs at least 4 B
<collective kind="allreduce" size="4GiB" algorithm="recursive-doubling"/>|a message is at most 2 GiB
<collective kind="broadcast" size="1MiB" chunks="2"/>|chunks applies only to algorithm="pipeline"
<collective kind="broadcast" size="1MiB" algorithm="pipeline" chunks="0"/>|chunks must be between 1 and 65536
<collective kind="broadcast" size="1MiB" algorithm="pipeline" chunks="65537"/>|chunks must be between 1 and 65536
<collective kind="broadcast" size="1MiB" algorithm="pipeline" chunks="two"/>|chunks="two": expected a whole decimal number
<collective kind="broadcast" size="3B" algorithm="pipeline" chunks="4"/>|a pipeline of 4 chunks needs at least 4 B
<collective kind="allgather" size="1MiB" reduce-rate="1Gbps"/>|reduce-rate applies only to allreduce and reduce-scatter
<collective kind="broadcast" size="1MiB" reduce-rate="1Gbps"/>|reduce-rate applies only to allreduce and reduce-scatter
<collective kind="allreduce" size="1MiB" reduce-rate="0Gbps"/>|reduce-rate must be above 0
<collective kind="allreduce" size="1MiB" reduce-rate="100"/>|reduce-rate="100": a rate needs a unit
<collective kind="allreduce" size="2GiB" algorithm="tree" reduce-rate="1bps"/>|reduce-rate is too slow: reducing 2147483648 B would take more than 100000 s
LIST

echo "collectives_algos: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
