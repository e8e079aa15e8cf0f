#!/bin/sh
# SPDX-License-Identifier: MIT
# ibfsim sweep as a user runs it (docs/sweep-format.md):
# - examples/sweep_fat_tree.xml, 2 models x 3 radixes x 2 seeds: 12 rows
#   in point order, the values of each point as the grid's product gives
#   them (the first <vary> outermost), k^2/2 NICs for radix k (8, 18,
#   32), and point 9 (roce, k = 6, seed 2) with the figures of `ibfsim
#   run --model roce --seed 2` of that scenario; the SVG plot has a line
#   per model;
# - resume: with two rows taken out, the same command runs those two
#   points only and the file is as before (but the wall times);
# - a point that fails does not stop the others: a deadlock (pfc on) and
#   a run that completes (pfc off), exit 1; a point the model refuses
#   (multicast under roce) is "not run", and the next sweep retries it;
# - under Open MPI's mpirun with 2 ranks (--oversubscribe), each rank
#   runs half the points and rank 0 writes the same file as one process
#   does (but the wall times) (skipped without mpirun);
# - bad grids exit 2 before anything runs, naming the grid's line, and
#   print nothing on stdout.
# Needs python3 and gnuplot (skips, 77, without them).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
for t in python3 gnuplot; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: needs $t"; exit 77; }
done
ex="$top_srcdir/examples"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# col FILE POINT KEY: the cell of KEY in POINT's row of a sweep CSV.
col() {
	python3 -c "import csv,sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x['point'] == sys.argv[2]]
print(r[0][sys.argv[3]] if r else 'none')" "$@"
}

"$IBFSIM" sweep "$ex/sweep_fat_tree.xml" --csv "$out/s.csv" \
	--svg "$out/s.svg" >"$out/s.txt" 2>&1 && ok ||
	bad "sweep: $(cat "$out/s.txt")"
[ "$(cut -d, -f1-4 "$out/s.csv" | tr '\n' ' ')" = "point,model,\
fabric/generate@k,seed 0,ib,4,1 1,ib,4,2 2,ib,6,1 3,ib,6,2 4,ib,8,1 5,ib,8,2 \
6,roce,4,1 7,roce,4,2 8,roce,6,1 9,roce,6,2 10,roce,8,1 11,roce,8,2 " ] &&
	ok || bad "points: $(cut -d, -f1-4 "$out/s.csv" | tr '\n' ' ')"
for p in 0:8 3:18 4:32 7:8 9:18 11:32; do
	[ "$(col "$out/s.csv" "${p%:*}" nics)" = "${p#*:}" ] && ok ||
		bad "point ${p%:*}: nics $(col "$out/s.csv" "${p%:*}" nics)"
done
sed 's/k="4"/k="6"/' "$ex/sweep_permutation.xml" >"$out/k6.xml"
"$IBFSIM" run "$out/k6.xml" --model roce --seed 2 --quiet \
	--json "$out/k6.json" >/dev/null 2>&1 || bad "run k6"
if python3 - "$out" <<'PY'
import csv, json, sys
d = sys.argv[1]
row = [r for r in csv.DictReader(open(d + "/s.csv")) if r["point"] == "9"][0]
j = json.load(open(d + "/k6.json"))
want = {"aggregate_gbps": "%.2f" % j["throughput_gbps"]["aggregate"],
        "latency_p99_us": "%.3f" % (j["messages"]["latency_ns"]["p99"] / 1000),
        "packets_sent": str(j["packets"]["sent"]),
        "messages": str(j["messages"]["completed"])}
bad = ["%s: %s, run says %s" % (k, row[k], v) for k, v in want.items()
       if row[k] != v]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
then ok; else bad "point 9 differs from its run"; fi
grep -q ">ib<" "$out/s.svg" && grep -q ">roce<" "$out/s.svg" && ok ||
	bad "the plot has no line per model"

# Resume: two rows out, two points run, the same file but wall_s.
nowall() {
	python3 -c "import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    del r['wall_s']; print(sorted(r.items()))" "$1"
}
nowall "$out/s.csv" >"$out/before"
sed -i '/^5,/d;/^9,/d' "$out/s.csv"
"$IBFSIM" sweep "$ex/sweep_fat_tree.xml" --csv "$out/s.csv" --jobs 1 \
	>"$out/r.txt" 2>&1 && ok || bad "resume: $(cat "$out/r.txt")"
grep -q "12 points, 10 from .*, 2 to run" "$out/r.txt" && ok ||
	bad "resume: $(head -1 "$out/r.txt")"
nowall "$out/s.csv" >"$out/after"
cmp -s "$out/before" "$out/after" && ok || bad "resumed file differs"

# The same grid across two MPI ranks.
if command -v mpirun >/dev/null 2>&1; then
	root=""
	[ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
	timeout 300 mpirun $root --oversubscribe -np 2 "$IBFSIM" sweep \
		"$ex/sweep_fat_tree.xml" --csv "$out/mpi.csv" --jobs 1 \
		>"$out/mpi.txt" 2>&1 </dev/null && ok ||
		bad "mpirun: $(tail -5 "$out/mpi.txt")"
	grep -q "rank 1 of 2: 12 points, 0 from .*, 6 to run here" \
		"$out/mpi.txt" && ok || bad "rank 1: $(cat "$out/mpi.txt")"
	nowall "$out/mpi.csv" >"$out/mpi"
	cmp -s "$out/before" "$out/mpi" && ok || bad "the MPI file differs"
else
	echo "mpirun not found: the MPI case is skipped"
fi

# A failed point does not stop the others.
cat >"$out/pfc.xml" <<XML
<sweep version="1" name="pfc">
  <scenario file="$(cd "$ex" && pwd)/roce_ring_deadlock.xml"/>
  <vary name="transport@pfc" values="on,off"/>
</sweep>
XML
"$IBFSIM" sweep "$out/pfc.xml" --csv "$out/pfc.csv" >"$out/p.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || bad "pfc grid: exit $rc"
[ "$(col "$out/pfc.csv" 0 status),$(col "$out/pfc.csv" 0 deadlock)" = \
	"1,1" ] && [ "$(col "$out/pfc.csv" 1 status)" = 0 ] && ok ||
	bad "pfc rows: $(cat "$out/pfc.csv")"
grep -q "transport@pfc=on: failed (deadlock)" "$out/p.txt" && ok ||
	bad "pfc lines: $(cat "$out/p.txt")"
cat >"$out/mc.xml" <<XML
<sweep version="1">
  <scenario file="$(cd "$ex" && pwd)/multicast.xml"/>
  <vary name="model" values="ib,roce"/>
</sweep>
XML
"$IBFSIM" sweep "$out/mc.xml" --csv "$out/mc.csv" >"$out/m.txt" 2>&1
[ $? -eq 1 ] && [ "$(col "$out/mc.csv" 0 status)" = 0 ] &&
	[ "$(col "$out/mc.csv" 1 status)" = -1 ] &&
	grep -q "model=roce: not run: .*multicast" "$out/m.txt" && ok ||
	bad "multicast grid: $(cat "$out/m.txt")"
"$IBFSIM" sweep "$out/mc.xml" --csv "$out/mc.csv" >"$out/m2.txt" 2>&1
grep -q "2 points, 1 from .*, 1 to run" "$out/m2.txt" && ok ||
	bad "not-run point not retried: $(head -1 "$out/m2.txt")"

# refused GRID PATTERN [ARGS]: exit 2, PATTERN on stderr, no stdout.
refused() {
	g=$1 pat=$2
	shift 2
	"$IBFSIM" sweep "$g" "$@" >"$out/x.out" 2>"$out/x.err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$out/x.out" ] &&
		grep -q -- "$pat" "$out/x.err"; then
		ok
	else
		bad "sweep $g: exit $rc, $(cat "$out/x.err" "$out/x.out")"
	fi
}
# grid NAME VARY...: a grid file on the example's scenario.
grid() {
	n=$1
	shift
	{
		echo '<sweep version="1">'
		echo "  <scenario file=\"$(cd "$ex" && pwd)/sweep_permutation.xml\"/>"
		for v in "$@"; do echo "  $v"; done
		echo '</sweep>'
	} >"$out/$n.xml"
}
grid path '<vary name="traffic/burst@size" values="1"/>'
refused "$out/path.xml" "path.xml:3: vary 'traffic/burst@size': .* has no element traffic/burst"
grid form '<vary name="size" values="1"/>'
refused "$out/form.xml" "form.xml:3: vary name 'size': expected model, seed or an attribute path"
grid model '<vary name="model" values="ib,iwarp"/>'
refused "$out/model.xml" "model.xml:3: vary model: 'iwarp' is not a built model"
grid seed '<vary name="seed" values="1,x"/>'
refused "$out/seed.xml" "seed.xml:3: vary seed: 'x' is not a whole number"
grid twice '<vary name="seed" values="1"/>' '<vary name="seed" values="2"/>'
refused "$out/twice.xml" "twice.xml:4: vary 'seed' twice (line 3)"
grid value '<vary name="traffic/pattern@size" values="1KiB,lots"/>'
refused "$out/value.xml" "value.xml:3: vary 'traffic/pattern@size' value 'lots': .*sweep_permutation.xml:[0-9]*:"
grid empty '<vary name="seed" values="1,,2"/>'
refused "$out/empty.xml" "empty.xml:3: vary 'seed': value 2 is empty"
grid novalues '<vary name="seed"/>'
refused "$out/novalues.xml" "novalues.xml:3:"
refused "$ex/sweep_permutation.xml" "the root element must be <sweep>"
refused "$out/no-such.xml" "no-such.xml: cannot open"
refused "$ex/sweep_fat_tree.xml" "another grid" --csv "$out/pfc.csv"
refused "$ex/sweep_fat_tree.xml" "not 'bogus'" --metric bogus
refused "$ex/sweep_fat_tree.xml" "unknown option '--bogus'" --bogus

echo "sweep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
