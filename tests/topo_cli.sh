#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `ibfsim topo` from the outside. Bad usage exits 2 with one line on stderr
# naming what is wrong and nothing on stdout (nor a file half written).
# Every generator writes fabric XML that `ibfsim validate` accepts, named
# after its parameters, with the common options (speed, width, data VLs,
# name, id prefix) in its defaults and ids; `info` gives the counts, the
# LIDs needed against a subnet's unicast LIDs and the diameter, and a
# closed-form bisection for a generated family only (`gen` warns of a
# fabric too large for one subnet);
# `export` writes a dot graph of every link.
#
# make check sets IBFSIM and top_srcdir.
set -u

cli_test=topo_cli
. "${top_srcdir:?top_srcdir must be set}/tests/cli_check.sh"
plat="$top_srcdir/platforms"

usage topo "gen needs a kind" gen
usage topo "unknown subcommand 'frob'" frob
usage topo "unexpected argument 'extra'" gen ring --n 4 extra
usage topo "--n needs a value" gen ring --n
usage topo "unknown speed 'XDRR'" gen ring --n 4 --speed XDRR
usage topo "unknown width '3x'" gen ring --n 4 --width 3x
usage topo "--data-vls '3' must be 1, 2, 4, 8 or 15" gen ring --n 4 --data-vls 3
usage topo "import needs an input file" import
usage topo "export needs an input file" export --format dot
usage topo "export needs --format ibnetdiscover|dot" export "$plat/star.xml"
usage topo "unknown format 'svg'" export "$plat/star.xml" --format svg
# An id with a quote cannot be written in the .net format (no escape).
printf '%s\n' '<?xml version="1.0"?>' '<fabric version="1" name="q">' \
	'  <switch id="s1" ports="2"/>' '  <hca id="a&quot;x"/>' \
	'  <link a="a&quot;x:1" b="s1:1"/>' '</fabric>' >"$tmp/q.xml"
usage topo "$tmp/q.xml:4: 'a\"x' holds a '\"' or a line break, which the ibnetdiscover format cannot quote" \
	export "$tmp/q.xml" --format ibnetdiscover -o "$tmp/q.net"
[ -e "$tmp/q.net" ] && fail "a refused export wrote $tmp/q.net"
usage topo "info needs exactly one fabric file" info
usage topo "info needs exactly one fabric file" info "$plat/star.xml" "$plat/star.xml"
usage topo "$tmp/none.xml: cannot open" info "$tmp/none.xml"
usage topo "$tmp/no/dir.xml: cannot write" gen ring --n 4 -o "$tmp/no/dir.xml"
[ -e "$tmp/no" ] && fail "a directory appeared for an unwritable -o"

# gen NAME SWITCHES HCAS LINKS ARGS...: the fabric is named NAME and valid
# with those counts.
gen() {
	name=$1 sw=$2 hca=$3 links=$4
	shift 4
	checks=$((checks + 1))
	if ! "$IBFSIM" topo gen "$@" -o "$tmp/g.xml" 2>"$tmp/err"; then
		fail "topo gen $*: $(cat "$tmp/err")"
		return
	fi
	grep -q "<fabric version=\"1\" name=\"$name\">" "$tmp/g.xml" ||
		fail "topo gen $*: not named $name"
	want="$tmp/g.xml: valid fabric: $sw switches, $hca HCAs, $links links"
	got=$("$IBFSIM" validate "$tmp/g.xml" 2>&1)
	[ "$got" = "$want" ] || fail "topo gen $*: '$got', expected '$want'"
}

# Counts in closed form (links: one an HCA, plus those between switches).
# Fat tree, L = 2: K leaves of K/2 HCAs under K/2
# spines, K^2/2 HCAs and K^2/2 + K^2/2 links; L = 3: K^3/4 HCAs on 5K^2/4
# switches, three link layers of K^3/4. H HCAs a leaf leave it K - H up
# ports: K (K - H) / K spines. Mesh AxB: A(B-1) + B(A-1) links; a torus
# dimension of size 2 has one link a pair, not two. Ring: N + N. Hypercube
# of dimension D: 2^(D-1) D links. Dragonfly: G = AH + 1 groups of A
# switches, all-to-all in a group, AH/2 global links a group.
gen fat-tree-k4-l2 6 8 16 fat-tree --k 4
gen fat-tree-k4-l3 20 16 48 fat-tree --k 4 --levels 3
gen fat-tree-k4-l2-h1 7 4 16 fat-tree --k 4 --hosts 1
gen mesh-2x3 6 6 13 mesh --dims 2x3
gen torus-2x2x2 8 16 28 torus --dims 2x2x2 --hcas 2
gen ring-n5 5 5 10 ring --n 5
gen hypercube-d2 4 4 8 hypercube --dim 2
gen dragonfly-a4-p2-h2 36 72 162 dragonfly --a 4 --p 2 --h 2
# HyperX S1 x .. x SL, K links a pair, N HCAs a switch: prod(S) switches,
# each with K sum(S - 1) switch links (half as many links). Dragonfly+:
# G groups of A leaves and A spines, A^2 leaf-spine links a group, AH/(G-1)
# global links a pair of groups. Slim Fly: 2q^2 switches of radix
# k' = (3q - d)/2 (q = 4w + d), q^2 k' links, ceil(k'/2) HCAs a switch.
gen hyperx-3x3 9 9 27 hyperx --dims 3x3
gen hyperx-4x2-k2 8 16 48 hyperx --dims 4x2 --width-k 2 --hcas 2
gen dragonfly-plus-a2-p2-h2 20 20 50 dragonfly-plus --a 2 --p 2 --h 2
gen dragonfly-plus-a3-p1-h2-g4 24 12 60 dragonfly-plus --a 3 --p 1 --h 2 --g 4
gen slimfly-q5 50 200 375 slimfly --q 5
gen slimfly-q3 18 18 63 slimfly --q 3 --hcas 1
gen slimfly-q4 32 32 128 slimfly --q 4 --hcas 1

# Bad parameters of the new kinds: one line, exit 2.
usage topo "hyperx: dims='4x1' must be up to 6 integers from 2 to 255" gen hyperx --dims 4x1
usage topo "hyperx: K*sum(S-1) + hcas = 255 ports is more than 254" gen hyperx --dims 128x128
usage topo "hyperx: width-k='x' must be an integer" gen hyperx --dims 3x3 --width-k x
usage topo "dragonfly-plus needs parameter 'h'" gen dragonfly-plus --a 2 --p 2
usage topo "dragonfly-plus: a*h = 6 global links per group must be a multiple of g-1 = 4" \
	gen dragonfly-plus --a 3 --p 1 --h 2 --g 5
usage topo "slimfly: q=10 is not a prime power" gen slimfly --q 10
usage topo "slimfly: q='abc' must be an integer from 3 to 254" gen slimfly --q abc
usage topo "slimfly: k' + hcas = 259 + 0 ports is more than 254" gen slimfly --q 173 --hcas 0

# The same kinds from <generate> in fabric XML: 3x2 with 2 links a pair is
# 6 switches of 2 (2 + 1) links, 18 switch links and 6 HCA links; a bad
# parameter names the file and line.
checks=$((checks + 1))
printf '%s\n' '<?xml version="1.0"?>' '<fabric version="1" name="x">' \
	'  <generate topology="hyperx" dims="3x2" width-k="2" prefix="h"/>' \
	'</fabric>' >"$tmp/gx.xml"
got=$("$IBFSIM" validate "$tmp/gx.xml" 2>&1)
[ "$got" = "$tmp/gx.xml: valid fabric: 6 switches, 6 HCAs, 24 links" ] ||
	fail "<generate topology=\"hyperx\">: $got"
printf '%s\n' '<?xml version="1.0"?>' '<fabric version="1" name="x">' \
	'  <generate topology="slimfly" q="9" hcas="300"/>' '</fabric>' >"$tmp/gs.xml"
usage validate "$tmp/gs.xml:3: slimfly: hcas='300' must be an integer from 0 to 254" "$tmp/gs.xml"

# topo --help lists the new kinds with their parameters.
checks=$((checks + 1))
"$IBFSIM" topo --help >"$tmp/help" 2>&1 || fail "topo --help"
for k in 'hyperx    --dims' 'dragonfly-plus --a A --p P --h H' 'slimfly   --q Q'; do
	grep -q "^  $k" "$tmp/help" || fail "topo --help lacks '$k'"
done

# route (minhop) finds every path and gives its credit-loop verdict; the
# longest path between HCA ports is the switch diameter plus 2: HyperX
# 3x3 2 + 2, Dragonfly+ leaf to leaf 3 + 2, Slim Fly 2 + 2. info gives the
# same diameter and names the family.
route_info() {
	hops=$1 family=$2
	shift 2
	checks=$((checks + 1))
	"$IBFSIM" topo gen "$@" -o "$tmp/d.xml" &&
		"$IBFSIM" route "$tmp/d.xml" >"$tmp/route" 2>&1 &&
		"$IBFSIM" topo info "$tmp/d.xml" >"$tmp/info" 2>&1 ||
		{ fail "route/info $*: $(cat "$tmp/route" "$tmp/info")"; return; }
	grep -q '^credit loops: ' "$tmp/route" ||
		fail "route $*: no credit-loop verdict: $(cat "$tmp/route")"
	grep -qx 'unroutable: none' "$tmp/route" ||
		fail "route $*: unroutable pairs: $(cat "$tmp/route")"
	grep -q "^hops between HCA ports: max $hops," "$tmp/route" ||
		fail "route $*: longest path not $hops: $(cat "$tmp/route")"
	grep -qx "diameter: $hops links between HCA ports" "$tmp/info" ||
		fail "info $*: diameter not $hops: $(cat "$tmp/info")"
	grep -qx "bisection: unknown (no closed form here for a generated $family)" \
		"$tmp/info" || fail "info $*: family not $family: $(cat "$tmp/info")"
}
route_info 4 HyperX hyperx --dims 3x3
route_info 5 HyperX hyperx --dims 3x2x2 --width-k 2
route_info 5 Dragonfly+ dragonfly-plus --a 2 --p 2 --h 2
route_info 4 "Slim Fly" slimfly --q 5

# HyperX ports go dimension by dimension, so dor's lowest shortest port
# crosses the dimensions in order, one hop each: channels of dimension d
# only wait on those of higher dimensions, hence no credit loop on 1 VL.
checks=$((checks + 1))
"$IBFSIM" topo gen hyperx --dims 3x4x2 --width-k 2 -o "$tmp/hx.xml" &&
	"$IBFSIM" route "$tmp/hx.xml" --routing dor >"$tmp/route" 2>&1 ||
	fail "route dor on hyperx: $(cat "$tmp/route")"
grep -qx 'credit loops: deadlock-free (no credit loop on 1 VL)' "$tmp/route" &&
	grep -q '^hops between HCA ports: max 5,' "$tmp/route" ||
	fail "dor on hyperx 3x4x2: $(cat "$tmp/route")"

# The common options reach the defaults and the ids.
checks=$((checks + 1))
"$IBFSIM" topo gen ring --n 4 --hcas 2 --speed HDR --width 2x \
	--data-vls 4 --name myring --prefix r -o "$tmp/r.xml" ||
	fail "topo gen ring with options"
grep -q '<fabric version="1" name="myring">' "$tmp/r.xml" ||
	fail "--name not used"
grep -q '<defaults speed="HDR" width="2x" mtu="4096" data-vls="4"' \
	"$tmp/r.xml" || fail "--speed, --width or --data-vls not in <defaults>"
grep -q '<switch id="rsw1" ports="4"/>' "$tmp/r.xml" ||
	fail "--prefix not on switch ids"
grep -q '<hca id="rnode8" ports="1"/>' "$tmp/r.xml" ||
	fail "--prefix not on HCA ids"

# info: counts and the diameter of any fabric; a closed-form bisection for
# a generated family only (the hypercube of dimension 3: 4 links).
checks=$((checks + 1))
"$IBFSIM" topo info "$tmp/r.xml" >"$tmp/info" 2>&1 || fail "topo info ring"
cat >"$tmp/want" <<'EOF'
fabric: myring
switches: 4
HCAs: 8 (8 linked ports)
links: 12
LIDs: 12 at LMC 0 (a switch 1, an HCA port 2^LMC) of the 49151 unicast LIDs of a subnet
diameter: 4 links between HCA ports
bisection: unknown (not a generated family)
EOF
cmp -s "$tmp/info" "$tmp/want" || fail "topo info ring: $(cat "$tmp/info")"
checks=$((checks + 1))
"$IBFSIM" topo gen hypercube --dim 3 -o "$tmp/h.xml" &&
	"$IBFSIM" topo info "$tmp/h.xml" >"$tmp/info" 2>&1 ||
	fail "topo info hypercube"
grep -qx 'bisection: 4 links (closed form for a generated hypercube)' \
	"$tmp/info" || fail "hypercube bisection: $(cat "$tmp/info")"
grep -qx 'diameter: 5 links between HCA ports' "$tmp/info" ||
	fail "hypercube diameter: $(cat "$tmp/info")"

# A subnet has 49,151 unicast LIDs (0x0001-0xBFFF), one a switch and one
# an HCA port at LMC 0: a ring of 2,137 switches with 22 HCAs each takes
# them all, a chain of 768 with 63 HCAs each (49,152) one too many,
# which gen warns of (still writing the file, exit 0) and info says.
lid_space() {
	want_warn=$1 want_info=$2
	shift 2
	checks=$((checks + 1))
	"$IBFSIM" topo gen "$@" -o "$tmp/m.xml" 2>"$tmp/err" ||
		{ fail "topo gen $*: $(cat "$tmp/err")"; return; }
	if [ -n "$want_warn" ]; then
		grep -qx "$want_warn" "$tmp/err" ||
			fail "gen $*: no LID warning: $(cat "$tmp/err")"
	else
		[ -s "$tmp/err" ] && fail "gen $*: warned: $(cat "$tmp/err")"
	fi
	"$IBFSIM" topo info "$tmp/m.xml" >"$tmp/info" 2>&1 &&
		grep -qx "$want_info" "$tmp/info" ||
		fail "topo info $*: $(cat "$tmp/info")"
}
lid_space "" \
	"LIDs: 49151 at LMC 0 (a switch 1, an HCA port 2^LMC) of the 49151 unicast LIDs of a subnet" \
	ring --n 2137 --hcas 22
lid_space "ibfsim: warning: topo gen: mesh-768x1 needs 49152 LIDs, more than the 49151 unicast LIDs of a subnet: a subnet manager cannot bring it all up" \
	"LIDs: 49152 at LMC 0, more than the 49151 unicast LIDs of a subnet: its subnet manager stops where they run out" \
	mesh --dims 768x1 --hcas 63

# export --format dot: one edge a link.
checks=$((checks + 1))
"$IBFSIM" topo export "$plat/star.xml" --format dot -o "$tmp/s.dot" ||
	fail "topo export dot"
[ "$(grep -c -- ' -- ' "$tmp/s.dot")" -eq 4 ] ||
	fail "dot graph of star.xml has not 4 edges: $(cat "$tmp/s.dot")"

cli_done
