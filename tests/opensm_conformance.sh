#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Conformance with the real OpenSM, run over ibsim's simulated management
# plane (tests/README.md, "Real tools"). For each fabric: export it to
# ibsim's .net format with our GUIDs, seed OpenSM's guid2lid cache with our
# LIDs, run opensm once per engine and compare:
#   - minhop: the hop count of every (switch, LID) along OpenSM's LFTs
#     equals the one along ours (both read by our walker, --dump-hops);
#   - dor (torus, hypercube): OpenSM's LFTs and ours are identical;
#   - updn, ftree (fat trees): both sets of tables route every pair, are
#     free of credit loops, and ours are at least as balanced (spread of
#     CA LIDs per switch-to-switch port no larger than OpenSM's);
#   - our --dump-lfts loads with `opensm -R file -U`, and OpenSM dumps it
#     back line for line identical;
#   - dfsssp (tori, hypercube, dragonfly, a fat tree): ours routes without
#     a credit loop on no more VLs than OpenSM's dfsssp says it needs;
#   - lash (ring, tori, hypercube, dragonfly, fat trees): ours is free of
#     credit loops, needs as many lanes as OpenSM's and its LFTs are
#     OpenSM's, line for line;
#   - partitions (star, a fat tree): the P_Key tables OpenSM programs from
#     a partitions.conf are ours, entry for entry (smpquery pkeys).
# Needs ibsim and libumad2sim.so (Debian ibsim-utils) and opensm; without
# them it says so and exits 77 (SKIP), never passing silently.
set -u

: "${IBFSIM:?IBFSIM must name the ibfsim binary}"
: "${top_srcdir:?top_srcdir must be set}"

. "$top_srcdir/tests/ibsim_lib.sh"
ibsim_require "the OpenSM conformance test" "opensm ibsim-utils" opensm
ibsim_tmp ibfs-osm
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# run_opensm NET GUID2LID OUTDIR ENGINE [opensm args...]: one opensm sweep
# over ibsim; the dumps land in OUTDIR.
run_opensm() {
	net=$1 g2l=$2 out=$3 engine=$4
	shift 4
	mkdir -p "$out/cache"
	cp "$g2l" "$out/cache/guid2lid"
	ibsim_opensm "$net" "$out" "$engine" 0x43 "$@"
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$out/dump/opensm-lfts.dump" ]; then
		fail "opensm -R $engine on $net (exit $rc)"
		tail -5 "$out/opensm.out"
		return 1
	fi
	# A guid2lid line OpenSM rejects would let it pick other LIDs.
	if grep -q "ERR 610B" "$out/osm.log"; then
		fail "opensm rejected our guid2lid: $(grep -m1 'ERR 610B' "$out/osm.log")"
		return 1
	fi
	return 0
}

# field NAME FILE: a figure from `ibfsim route` output.
field() {
	sed -n "s/^$1: //p" "$2"
}

# spread FILE: max - min CA LIDs per switch-to-switch port.
spread() {
	sed -n 's/^CA LIDs per switch-to-switch port: min \([0-9]*\), .* max \([0-9]*\)$/\1 \2/p' "$1" |
		awk '{print $2 - $1}'
}

# deadlock_free LABEL FILE: fails unless `ibfsim route` output FILE says
# the tables are deadlock-free.
deadlock_free() {
	case $(field "credit loops" "$2") in
	deadlock-free*) ;;
	*) fail "$1: credit loop in our tables" ;;
	esac
}

# compare LABEL WHAT OURS TEST THEIRS: a count of ours against OpenSM's,
# TEST being -le or -eq; says both and counts a check or a failure.
compare() {
	echo "$1: $2: ours $3, OpenSM's $5"
	if [ -n "$3" ] && [ -n "$5" ] && [ "$3" "$4" "$5" ]; then
		checked=$((checked + 1))
	else
		fail "$1: $2: ours '$3' vs OpenSM's '$5'"
	fi
}

# prepare NAME FABRIC: into $tmp/NAME, the fabric as ibsim's fab.net, our
# minhop tables and hop counts, and OpenSM's guid2lid seeded with our LIDs.
prepare() {
	d=$tmp/$1
	mkdir -p "$d"
	"$IBFSIM" topo export "$2" --format ibnetdiscover -o "$d/fab.net" ||
		{ fail "export $1"; return 1; }
	"$IBFSIM" route "$2" --dump-lfts "$d/ours-minhop.dump" \
		--dump-hops "$d/ours-minhop.hops" >"$d/ours-minhop.txt" ||
		{ fail "route $1"; return 1; }
	# guid2lid: "GUID MINLID MAXLID" and a blank line, from our dump.
	awk '/^0x/ { for (i = 4; i < NF; i++) if ($i == "portguid") {
			g = $(i + 1); sub(":", "", g); print g, $1 } }' \
		"$d/ours-minhop.dump" | sort -u |
		awk '{printf "%s %s %s\n\n", $1, $2, $2}' >"$d/guid2lid"
}

checked=0
for name in fat-tree-k4-l2 fat-tree-k4-l3 fat-tree-k8-l2 torus-4x4 \
	hypercube-d3 dragonfly-a4-p2-h2; do
	fab=$top_srcdir/platforms/$name.xml
	prepare $name "$fab" || continue

	run_opensm "$d/fab.net" "$d/guid2lid" "$d/osm-minhop" minhop ||
		continue
	"$IBFSIM" route "$fab" --routing file --no-fallback \
		--lfts-file "$d/osm-minhop/dump/opensm-lfts.dump" \
		--dump-hops "$d/osm-minhop.hops" >"$d/osm-minhop.txt" ||
		{ fail "$name: OpenSM's minhop tables do not load"; continue; }
	if cmp -s "$d/ours-minhop.hops" "$d/osm-minhop.hops"; then
		checked=$((checked + 1))
	else
		fail "$name: minhop hop counts differ from OpenSM's"
		diff "$d/ours-minhop.hops" "$d/osm-minhop.hops" | head -5
	fi

	# dor is minhop with the lowest port among the shortest, in OpenSM
	# as here: the tables must be the same, line for line.
	case $name in torus-*|hypercube-*)
		"$IBFSIM" route "$fab" --routing dor --no-fallback \
			--dump-lfts "$d/ours-dor.dump" >"$d/ours-dor.txt" ||
			{ fail "$name: our dor failed"; continue; }
		run_opensm "$d/fab.net" "$d/guid2lid" "$d/osm-dor" dor ||
			continue
		if cmp -s "$d/ours-dor.dump" "$d/osm-dor/dump/opensm-lfts.dump"
		then
			checked=$((checked + 1))
		else
			fail "$name: dor LFTs differ from OpenSM's"
			diff "$d/ours-dor.dump" \
				"$d/osm-dor/dump/opensm-lfts.dump" | head -5
		fi
		;;
	esac

	case $name in fat-tree-*) ;; *) continue ;; esac
	for eng in updn ftree; do
		"$IBFSIM" route "$fab" --routing $eng --no-fallback \
			--dump-lfts "$d/ours-$eng.dump" >"$d/ours-$eng.txt" ||
			{ fail "$name: our $eng failed"; continue; }
		run_opensm "$d/fab.net" "$d/guid2lid" "$d/osm-$eng" $eng ||
			continue
		"$IBFSIM" route "$fab" --routing file --no-fallback \
			--lfts-file "$d/osm-$eng/dump/opensm-lfts.dump" \
			>"$d/osm-$eng.txt" ||
			{ fail "$name: OpenSM's $eng tables do not load"; continue; }
		for f in "$d/ours-$eng.txt" "$d/osm-$eng.txt"; do
			[ "$(field unroutable "$f")" = none ] ||
				fail "$name $eng: unroutable pairs in $f"
			case $(field "credit loops" "$f") in
			deadlock-free*) ;;
			*) fail "$name $eng: credit loop in $f" ;;
			esac
		done
		ours=$(spread "$d/ours-$eng.txt")
		theirs=$(spread "$d/osm-$eng.txt")
		if [ -z "$ours" ] || [ -z "$theirs" ] ||
			[ "$ours" -gt "$theirs" ]; then
			fail "$name $eng: our spread '$ours' vs OpenSM's '$theirs'"
		else
			checked=$((checked + 1))
		fi
		# Our dump through OpenSM's file engine and back.
		run_opensm "$d/fab.net" "$d/guid2lid" "$d/osm-file-$eng" \
			file -U "$d/ours-$eng.dump" || continue
		if cmp -s "$d/ours-$eng.dump" \
			"$d/osm-file-$eng/dump/opensm-lfts.dump"; then
			checked=$((checked + 1))
		else
			fail "$name: OpenSM does not give our $eng LFTs back"
			diff "$d/ours-$eng.dump" \
				"$d/osm-file-$eng/dump/opensm-lfts.dump" | head -5
		fi
	done
done

# dfsssp: our virtual layers, per (source, destination) path as OpenSM's,
# need no more VLs than OpenSM's own dfsssp on the same fabric (its log
# says how many it needs; ibsim offers 8). Our paths are shortest and
# OpenSM's may not be, and OpenSM also layers the paths to switch LIDs,
# so the counts differ; ours (OpenSM's): torus-4x4 2 (3), hypercube-d3 2 (2),
# dragonfly 3 (4), 4x4x4 torus 5 (7), 8x8 torus 7 (8), fat trees 1 (1).
"$IBFSIM" topo gen torus --dims 4x4x4 --data-vls 8 -o "$tmp/torus-4x4x4.xml" ||
	fail "topo gen torus 4x4x4"
"$IBFSIM" topo gen torus --dims 8x8 --data-vls 8 -o "$tmp/torus-8x8.xml" ||
	fail "topo gen torus 8x8"
for name in fat-tree-k4-l3 torus-4x4 hypercube-d3 dragonfly-a4-p2-h2 \
	torus-4x4x4 torus-8x8; do
	fab=$top_srcdir/platforms/$name.xml
	case $name in torus-4x4x4|torus-8x8) fab=$tmp/$name.xml ;; esac
	d=$tmp/$name
	[ -f "$d/guid2lid" ] || prepare $name "$fab" || continue
	"$IBFSIM" route "$fab" --routing dfsssp --no-fallback \
		>"$d/ours-dfsssp.txt" 2>&1 ||
		{ fail "$name: our dfsssp failed: $(grep ERR "$d/ours-dfsssp.txt")"
		  continue; }
	deadlock_free "$name dfsssp" "$d/ours-dfsssp.txt"
	run_opensm "$d/fab.net" "$d/guid2lid" "$d/osm-dfsssp" dfsssp ||
		continue
	ours=$(sed -n 's/.*dfsssp: \([0-9]*\) of [0-9]* VLs used.*/\1/p' \
		"$d/ours-dfsssp.txt")
	theirs=$(sed -n 's/.*Virtual Lanes needed: \([0-9]*\).*/\1/p' \
		"$d/osm-dfsssp/osm.log" | tail -1)
	compare "$name dfsssp" "VLs needed" "$ours" -le "$theirs"
done

# lash: OpenSM's route construction (a BFS tree per switch in GUID order,
# first root wins) and first-fit lanes are deterministic, and ours follow
# them: the same lanes needed, and the same LFTs line for line. (OpenSM
# then balances the lanes at random, which changes SLs only; ours does
# not balance.) Measured: ring of 5 2, torus-4x4 2, hypercube-d3 1,
# dragonfly 3, 2-level fat tree 1, 3-level fat tree 3, 4x4x4 torus 5, 8x8
# torus 8 lanes, all LFTs identical.
"$IBFSIM" topo gen ring --n 5 --data-vls 8 -o "$tmp/ring-5.xml" ||
	fail "topo gen ring 5"
"$IBFSIM" topo gen fat-tree --k 4 --levels 3 --data-vls 8 \
	-o "$tmp/fat-tree-k4-l3-v8.xml" || fail "topo gen fat-tree k4 l3"
for name in ring-5 torus-4x4 hypercube-d3 dragonfly-a4-p2-h2 \
	fat-tree-k8-l2 fat-tree-k4-l3-v8 torus-4x4x4 torus-8x8; do
	fab=$top_srcdir/platforms/$name.xml
	[ -f "$tmp/$name.xml" ] && fab=$tmp/$name.xml
	d=$tmp/$name
	[ -f "$d/guid2lid" ] || prepare $name "$fab" || continue
	"$IBFSIM" route "$fab" --routing lash --no-fallback \
		--dump-lfts "$d/ours-lash.dump" >"$d/ours-lash.txt" 2>&1 ||
		{ fail "$name: our lash failed: $(grep ERR "$d/ours-lash.txt")"
		  continue; }
	deadlock_free "$name lash" "$d/ours-lash.txt"
	run_opensm "$d/fab.net" "$d/guid2lid" "$d/osm-lash" lash || continue
	ours=$(sed -n 's/.*lash: lanes needed: \([0-9]*\) of.*/\1/p' \
		"$d/ours-lash.txt")
	theirs=$(sed -n 's/.*Lanes needed: \([0-9]*\),.*/\1/p' \
		"$d/osm-lash/osm.log" | tail -1)
	compare "$name lash" "lanes needed" "$ours" -eq "$theirs"
	if cmp -s "$d/ours-lash.dump" "$d/osm-lash/dump/opensm-lfts.dump"; then
		checked=$((checked + 1))
	else
		fail "$name: lash LFTs differ from OpenSM's"
		diff "$d/ours-lash.dump" "$d/osm-lash/dump/opensm-lfts.dump" |
			head -5
	fi
done

# Partitions: the P_Key tables OpenSM programs from a partitions.conf
# (read back with `smpquery pkeys` over ibsim) equal, entry for entry,
# those ibfsim lays out for its SM (route --dump-pkeys), on every CA port,
# every switch's port 0 and every switch port facing a CA. ibsim's tables
# are shorter than ours (64 entries a CA port, 8 a switch port), so the
# file keeps to a few partitions a port; trailing unused entries are
# left out on both sides.
pkeys_of() { # LID [PORT]: the entries, trailing zeros dropped
	IBSIM_SOCKNAME=$sock SIM_HOST=$host LD_PRELOAD=$umad2sim \
		timeout 20 smpquery pkeys "$@" 2>&1 |
		awk '/^ *[0-9]+:/ { for (i = 2; i <= NF; i++) k[n++] = $i }
		     END { while (n > 0 && k[n - 1] == "0x0000") n--;
			   for (i = 0; i < n; i++) printf " %s", k[i]; print "" }'
}
command -v smpquery >/dev/null 2>&1 ||
	fail "partitions: smpquery is missing (Debian: infiniband-diags)"
for name in star fat-tree-k4-l2; do
	command -v smpquery >/dev/null 2>&1 || break
	fab=$top_srcdir/platforms/$name.xml
	d=$tmp/pk-$name
	prepare pk-$name "$fab" || continue
	set -- $(sed -n 's/.*Channel Adapter portguid \(0x[0-9a-f]*\):.*/\1/p' \
		"$d/ours-minhop.dump" | awk '!seen[$0]++')
	{
		echo "# Written by opensm_conformance.sh for $name."
		echo "Default=0x7fff : ALL, SELF=full ;"
		echo "Storage=0x0100, ipoib : ALL_SWITCHES=full, $1=full, $3 ;"
		echo "TenantA=0x8001, defmember=full : $1, $2=limited,"
		echo "	$3 ;"
		echo "TenantB=0x0002 : $2=full, $4 ; Empty=0x0003 : ;"
	} >"$d/part.conf"
	"$IBFSIM" route "$fab" --partitions "$d/part.conf" \
		--dump-pkeys "$d/ours.pk" >/dev/null ||
		{ fail "$name: route --dump-pkeys"; continue; }
	mkdir -p "$d/osm/cache" "$d/osm/dump"
	cp "$d/guid2lid" "$d/osm/cache/guid2lid"
	sock="ibfs-osm-$$-pk-$name"
	ibsim_start "$d/fab.net" "$d/ibsim.log" "$sock" ||
		{ fails=$((fails + 1)); continue; }
	host=$(awk '/^Ca\t/ {gsub(/"/, "", $3); print $3; exit}' "$d/fab.net")
	if ! IBSIM_SOCKNAME=$sock SIM_HOST=$host OSM_CACHE_DIR=$d/osm/cache \
		OSM_TMP_DIR=$d/osm LD_PRELOAD=$umad2sim \
		timeout 120 opensm -o -f "$d/osm/osm.log" -D 0x43 \
		--dump_files_dir "$d/osm/dump" -P "$d/part.conf" \
		>"$d/osm/opensm.out" 2>&1; then
		fail "$name: opensm -P"
		ibsim_stop
		continue
	fi
	n=0
	while read -r kind lid port keys; do
		if [ "$kind" = SW ]; then
			theirs=$(pkeys_of "$lid" "$port")
		else
			theirs=$(pkeys_of "$lid")
		fi
		n=$((n + 1))
		[ "$theirs" = " $keys" ] ||
			fail "$name: $kind LID $lid port $port: ours '$keys', OpenSM's '$theirs'"
	done <"$d/ours.pk"
	ibsim_stop
	if [ "$n" -gt 0 ] && grep -q '^CA .* 0x8001' "$d/ours.pk"; then
		echo "$name partitions: $n P_Key tables as OpenSM's"
		checked=$((checked + 1))
	else
		fail "$name: no P_Key tables compared"
	fi
done

echo "opensm conformance: $checked checks passed, $fails failed"
[ $fails -eq 0 ] && [ $checked -gt 0 ]
