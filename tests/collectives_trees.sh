#!/bin/sh
# SPDX-License-Identifier: MIT
# The pipelined trees of <collective>: NCCL's double binary tree
# (algorithm="double-tree") and the binomial tree in pieces
# (algorithm="tree" chunks=). On stars of 3 to 8 HCAs (node2 on a 200 m
# cable, so that arrivals differ): every message is an edge of its tree,
# up or down, once a piece, with its piece's bytes, the trees derived
# here from NCCL's rule for a rank's children (the simulator derives them
# from the rule for a rank's parent); every post at exactly the time of
# what it waits for (its kids' pieces, reduced in turn at a reduce-rate,
# or its parent's piece; a second run after the first is over for that
# member); the closed-form picosecond time of a double tree on the ideal
# star; the algorithm in the summary, JSON and CSV with nccl-tests'
# busbw; and each misuse refused at its line by run and validate (exit 2).
#
# make check sets IBFSIM and top_srcdir.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
. "$top_srcdir/tests/collectives_lib.sh"
stars

# hcas N: node1,...,nodeN.
hcas() {
	i=1 l=node1
	while [ $i -lt "$1" ]; do i=$((i + 1)) l="$l,node$i"; done
	echo "$l"
}

# check NAME MODE N CHUNKS RATE RUNS SIZE: every message of NAME's
# messages.csv against the trees. MODE dtree: NCCL's two trees; MODE
# tree: the binomial tree. Rows go run by run, piece by piece, and tree
# 0's pieces before tree 1's: the row says the tree and piece, the bytes
# must then be the piece's of the tree's half. RATE: reduce-rate in Gb/s
# (0: none). Prints how many posts waited for two kids whose pieces
# arrived at different times (the check tells them apart), or the faults.
check() {
	awk -F, -v mode="$2" -v n="$3" -v C="$4" -v rate="$5" -v runs="$6" \
		-v total="$7" '
	function low(r,  b) { b = 1; while (r % (2 * b) == 0) b *= 2; return b }
	# NCCL 2.4 trees.cc: rank r of tree 0 and its children d0, d1.
	function kids0(r,  b, h, m) {
		m = 0
		if (r == 0) { b = 1; while (b < n) b *= 2; K0[m++] = b / 2
			return m }
		h = low(r) / 2
		if (h < 1) return 0
		K0[m++] = r - h
		while (h >= 1 && r + h >= n) h /= 2
		if (h >= 1) K0[m++] = r + h
		return m
	}
	function addkid(t, p, c) { par[t, c] = p; nk[t, p]++
		kid[t, p, nk[t, p]] = c }
	function build(  t, r, j, m, x) {
		if (mode == "tree") {
			for (r = 1; r < n; r++) addkid(0, r - low(r), r)
			root[0] = 0; T = 1; part[0] = total; return
		}
		T = 2
		for (r = 0; r < n; r++) {
			m = kids0(r)
			for (j = 0; j < m; j++) addkid(0, r, K0[j])
			# Tree 1: tree 0 shifted by one (N odd), mirrored (even).
			x = n % 2 ? (r + n - 1) % n : n - 1 - r
			m = kids0(x)
			for (j = 0; j < m; j++)
				addkid(1, r, n % 2 ? (K0[j] + 1) % n : n - 1 - K0[j])
		}
		root[0] = 0; root[1] = n % 2 ? 1 : n - 1
		part[0] = total - int(total / 2); part[1] = int(total / 2)
	}
	function sortkids(  t, p, i, j, x) {
		for (t = 0; t < T; t++) for (p = 0; p < n; p++)
		for (i = 2; i <= nk[t, p]; i++) for (j = i; j > 1 &&
		    kid[t, p, j - 1] > kid[t, p, j]; j--) {
			x = kid[t, p, j]; kid[t, p, j] = kid[t, p, j - 1]
			kid[t, p, j - 1] = x
		}
	}
	function piece(sz, c) { return int(sz / C) + (c < sz % C) }
	function red(b,  x, r) { if (!rate) return 0; x = b * 8000
		r = int(x / rate); if (r * rate < x) r++; return r }
	function max(a, b) { return a > b ? a : b }
	# The chain of p: from at, each kid of s in rank order, in turn.
	function chain(u, t, s, p, at, b,  i, c, x) {
		x = 0
		for (i = 1; i <= nk[t, s]; i++) {
			c = kid[t, s, i]
			at = max(at, A[u, t, "up", c, p]) + red(b)
			if (A[u, t, "up", c, p] != A[u, t, "up", kid[t, s, 1], p])
				x = 1
		}
		differ += x
		return at
	}
	function fail(msg) { if (bad++ < 5) print msg }
	NR > 1 { k = NR - 2; S[k] = substr($1, 5) - 1; D[k] = substr($2, 5) - 1
		B[k] = $4; P[k] = $5; Dn[k] = $6; Ar[k] = $9 }
	END {
		rows = NR - 1
		build(); sortkids()
		M = rows / runs
		if (M != T * 2 * (n - 1) * C) fail(rows " rows")
		for (k = 0; k < rows; k++) {
			u = int(k / M); s = S[k]; d = D[k]
			t = int(k % M / (2 * (n - 1))) % T
			dir = ""
			if ((t, s) in par && par[t, s] == d) dir = "up"
			if ((t, d) in par && par[t, d] == s) dir = "down"
			if (dir == "") { fail("row " k ": " s ">" d " not in tree " t)
				continue }
			p = int(k % M / (2 * (n - 1) * T))
			if (seen[u, t, s, d, p]++) fail("row " k ": twice")
			if (B[k] != piece(part[t], p))
				fail("row " k ": " B[k] " B for piece " p)
			R[k] = t SUBSEP dir SUBSEP p
			A[u, t, dir, dir == "up" ? s : d, p] = Ar[k]
			J[u, s] = max(J[u, s], Dn[k]); J[u, d] = max(J[u, d], Ar[k])
		}
		for (k = 0; k < rows; k++) {
			if (!(k in R)) continue
			split(R[k], f, SUBSEP); t = f[1]; dir = f[2]; p = f[3]
			u = int(k / M); s = S[k]; d = D[k]; st = s SUBSEP t SUBSEP dir
			at = st in prev ? prev[st] : 0
			if (u && !((u, st) in begun)) at = max(at, J[u - 1, s])
			begun[u, st] = 1
			if (dir == "up" && nk[t, s])
				at = chain(u, t, s, p, at, B[k])
			else if (dir == "down" && s == root[t] && d == kid[t, s, 1])
				at = chain(u, t, s, p, at, B[k])
			else if (dir == "down" && s != root[t])
				at = max(at, A[u, t, "down", s, p])
			if (P[k] != at) fail("row " k " " s ">" d ": posted " P[k] ", not " at)
			prev[st] = P[k]
		}
		if (bad) exit 1
		print differ + 0
	}' "$out/$1/messages.csv"
}

# --- The trees of 4 and 5 HCAs, written out (ranks 0.. = node1..).
# 4 (even): tree 0: 0 -> 2, 2 -> 1, 3; tree 1 (mirrored): 3 -> 1, 1 -> 0,
# 2. 5 (odd): tree 0: 0 -> 4 -> 2 -> 1, 3; tree 1 (shifted): 1 -> 0 -> 3
# -> 2, 4. Rows: tree 0 then tree 1, each up (deepest ranks first, in
# rank order) then down (from the root). 4099 B: halves of 2050 and 2049.
run d4 "<collective kind=\"allreduce\" size=\"4099B\" algorithm=\"double-tree\" hcas=\"$(hcas 4)\"/>" \
	"$out/star8-200.xml"
e="2>3:2050 4>3:2050 3>1:2050 1>3:2050 3>2:2050 3>4:2050 "
e="${e}1>2:2049 3>2:2049 2>4:2049 4>2:2049 2>1:2049 2>3:2049 "
[ "$(edges d4)" = "$e" ] && ok || bad "d4: edges $(edges d4)"
run d5 "<collective kind=\"allreduce\" size=\"4099B\" algorithm=\"double-tree\" hcas=\"$(hcas 5)\"/>" \
	"$out/star8-200.xml"
e="2>3:2050 4>3:2050 3>5:2050 5>1:2050 1>5:2050 5>3:2050 3>2:2050 3>4:2050 "
e="${e}3>4:2049 5>4:2049 4>1:2049 1>2:2049 2>1:2049 1>4:2049 4>3:2049 4>5:2049 "
[ "$(edges d5)" = "$e" ] && ok || bad "d5: edges $(edges d5)"

# --- 3 to 8 HCAs, 3 pieces a half (8197 B: 4099 and 4098 B, pieces of
# 1367, 1366, 1366 and 1366, 1366, 1366 B), each message an edge and
# each post at its dependency; twice, with reduce-rate="50Gbps" (1367 B:
# 218720 ps, about a piece's time on the link).
for n in 3 4 5 6 7 8; do
	h=$(hcas $n)
	run dt$n "<collective kind=\"allreduce\" size=\"8197B\" algorithm=\"double-tree\" chunks=\"3\" hcas=\"$h\"/>" \
		"$out/star8-200.xml"
	d=$(check dt$n dtree $n 3 0 1 8197) && ok || bad "dt$n: $d"
	run dr$n "<collective kind=\"allreduce\" size=\"8197B\" algorithm=\"double-tree\" chunks=\"3\" hcas=\"$h\" reduce-rate=\"50Gbps\" count=\"2\"/>" \
		"$out/star8-200.xml"
	d=$(check dr$n dtree $n 3 50 2 8197) && ok || bad "dr$n: $d"
	# Kids that the check tells apart (a rank with kids whose pieces
# arrived at different times): some from 4 HCAs on.
	[ $n -lt 4 ] || [ "$d" -gt 0 ] && ok || bad "dr$n: no post told apart"
done
# The 8 HCAs' trees (piece 0: rows 0-13 tree 0, 14-27 tree 1): each
# rank but the two roots (0, 7) is inner in one tree (sends to its
# parent and its kids) and a leaf in the other (to its parent alone):
# the even ranks are inner in tree 0, the odd ones in tree 1.
awk -F, 'NR > 1 && NR <= 29 { t = int((NR - 2) / 14)
		r = substr($1, 5) - 1
		if (!((t, r, $2) in to)) { to[t, r, $2] = 1; nd[t, r]++ } }
	END { for (r = 1; r < 7; r++)
		if (nd[r % 2, r] < 2 || nd[1 - r % 2, r] != 1) exit 1 }' \
	"$out/dt8/messages.csv" && ok || bad "dt8: a rank inner in both trees"

# --- The tree in 4 pieces (binomial, whole buffer) on 5 and 8 HCAs.
for n in 5 8; do
	run tc$n "<collective kind=\"allreduce\" size=\"4098B\" algorithm=\"tree\" chunks=\"4\" hcas=\"$(hcas $n)\" reduce-rate=\"50Gbps\" count=\"2\"/>" \
		"$out/star8-200.xml"
	d=$(check tc$n tree $n 4 50 2 4098) && [ "$d" -gt 0 ] && ok ||
		bad "tc$n: $d"
done
# chunks="1" is the tree as it was: reduce, then broadcast.
run tc1 '<collective kind="allreduce" size="4KiB" algorithm="tree" chunks="1"/>'
[ "$(edges tc1)" = "2>1:4096 4>3:4096 3>1:4096 1>2:4096 1>3:4096 2>4:4096 " ] &&
	ok || bad "tc1: $(edges tc1)"

# --- A ring after a double tree (24 rows, 2 pieces on 4 HCAs): a
# member's first ring post waits for its double tree to be over for it
# (all that arrived at it, its sends completed), as blocking calls do.
# Then with a broadcast from node1 to node2 between them: node2, its
# leaf, posts nothing there and still waits for the end of its double
# tree, which comes after the broadcast's arrival (its sends' ACKs
# cross its 200 m cable).
run mix '<collective kind="allreduce" size="8KiB" algorithm="double-tree" chunks="2"/>
    <collective kind="allreduce" size="8KiB"/>' "$out/star-200.xml"
awk -F, 'NR > 1 { k = NR - 2; s = substr($1, 5); d = substr($2, 5)
		if (k < 24) { if ($6 > J[s]) J[s] = $6; if ($9 > J[d]) J[d] = $9 }
		else if (k < 28 && $5 != J[s]) exit 1 }' "$out/mix/messages.csv" &&
	ok || bad "mix: a ring post not at the end of its double tree"
run mix2 '<collective kind="allreduce" size="8KiB" algorithm="double-tree" chunks="2"/>
    <collective kind="broadcast" size="64B" hcas="node1,node2"/>
    <collective kind="allreduce" size="8KiB"/>' "$out/star-200.xml"
awk -F, 'NR > 1 { k = NR - 2; s = substr($1, 5); d = substr($2, 5)
		if (k < 24) { if ($6 > J[s]) J[s] = $6; if ($9 > J[d]) J[d] = $9 }
		else if (k == 24) b = $9
		else if (s == 2) { if ($5 != J[2] || J[2] <= b) exit 1
			exit 0 } }' "$out/mix2/messages.csv" && ok ||
	bad "mix2: node2's ring post not at the end of its double tree"

# --- Closed form on the ideal star (platforms/star.xml), 3 HCAs, 64 B
# over UC (no ACKs): halves of 32 B, one packet each (RDMA WRITE Only
# with ImmDt: LRH 8, BTH 12, RETH 16, ImmDt 4, 32, ICRC 4, VCRC 2 = 78
# B). A hop takes a = (8 + 78) x 80 + 2 x 10000 + 100000 = 126880 ps
# (LRH, cut through, cables, switch). Each tree is a path of 3 (tree 0:
# 2 -> 3 -> 1 up, tree 1: 3 -> 1 -> 2): a leaf at 0, the inner rank and
# the root each forward at the arrival, when their port also returns the
# packet's credits with a 6-byte FCP that goes first (480 ps): the last
# piece arrives at a + 3 (a + 480) = 508960 ps, on both trees.
run cf '<collective kind="allreduce" size="64B" algorithm="double-tree" qp="uc" hcas="node1,node2,node3"/>'
arr=$(awk -F, 'NR > 1 { printf "%s ", $9 }' "$out/cf/messages.csv")
a="126880 254240 381600 508960"
[ "$arr" = "$a $a " ] && ok || bad "cf: arrivals $arr"
awk -F, 'NR == 2 && !($2 == "double-tree" && $7 == 508960) { exit 1 }' \
	"$out/cf/collectives.csv" && ok || bad "cf: collectives.csv"

# --- Names and nccl-tests' busbw: 2(n-1)/n = 1.5 on 4 HCAs.
grep -q '^collective allreduce (double-tree), 4 HCAs, 4099 B x 1: ' \
	"$out/d4.out" && ok || bad "d4: summary"
grep -q '"kind": "allreduce", "algorithm": "double-tree", "hcas": 4' \
	"$out/d4.json" && ok || bad "d4: JSON"
awk -F, 'NR == 2 && !($2 == "double-tree" && $11 > 0 &&
	($12 - 1.5 * $11) ^ 2 < 1e-10) { exit 1 }' "$out/d4/collectives.csv" &&
	ok || bad "d4: collectives.csv"
grep -q '"algorithm": "tree", "hcas": 5' "$out/tc5.json" && ok ||
	bad "tc5: JSON"

# With data off: the same times.
"$IBFSIM" run "$out/dr5.xml" --quiet --no-data --csv "$out/dr5-nd" \
	>/dev/null || bad "dr5 --no-data: exit $?"
cmp -s "$out/dr5/messages.csv" "$out/dr5-nd/messages.csv" && ok ||
	bad "dr5: --no-data changes the times"

# --- Mistakes, each at its line, by run and validate.
refused <<'LIST'
<collective kind="allreduce" size="1MiB" algorithm="double-tree" chunks="0"/>|chunks must be between 1 and 65536
<collective kind="allreduce" size="1MiB" algorithm="tree" chunks="65537"/>|chunks must be between 1 and 65536
<collective kind="allreduce" size="7B" algorithm="double-tree" chunks="4"/>|a double tree splits size in 2 halves of 4 chunks: it needs at least 8 B
<collective kind="allreduce" size="1B" algorithm="double-tree"/>|a double tree splits size in 2 halves of 1 chunks: it needs at least 2 B
<collective kind="allreduce" size="3B" algorithm="tree" chunks="4"/>|a tree of 4 chunks needs at least 4 B
<collective kind="allreduce" size="1MiB" algorithm="double-tree" hcas="node1"/>|a collective needs at least two HCAs
<collective kind="broadcast" size="1MiB" algorithm="double-tree"/>|algorithm="double-tree" does not run broadcast (it runs: binomial, pipeline)
<collective kind="reduce-scatter" size="1MiB" algorithm="double-tree"/>|algorithm="double-tree" does not run reduce-scatter
<collective kind="allreduce" size="1MiB" chunks="2"/>|chunks applies only to algorithm="pipeline", "tree" and "double-tree"
<collective kind="allreduce" size="1MiB" algorithm="recursive-doubling" chunks="2"/>|chunks applies only to
<collective kind="allreduce" size="8GiB" algorithm="double-tree"/>|a message is at most 2 GiB
<collective kind="allreduce" size="8GiB" algorithm="tree" chunks="2"/>|a message is at most 2 GiB
LIST

echo "collectives_trees: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
