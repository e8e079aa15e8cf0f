#!/bin/sh
# SPDX-License-Identifier: MIT
# Validate and run agree: mutants of the seed scenarios of
# tests/fuzz/corpus/scenario (a value's digits changed, a unit or word
# swapped for another, an attribute or a line dropped, a line repeated, the
# file cut short) are given to `ibfsim validate FILE` and to `ibfsim run
# FILE --until 1us`. What validate accepts (exit 0), run must not refuse as
# bad input (exit 2), and what validate refuses, run must refuse too; for
# fabric files (tests/fuzz/corpus/fabric_xml) validate must answer 0 or 2.
# Any other status (a crash, a sanitizer's report) fails as well. The
# mutants are drawn from a fixed seed, so a run is repeatable:
#
#   sh tests/fuzz/consistency.sh [MUTANTS_PER_SEED] [SEED]
#
# make check runs it with 1 mutant of each seed; more by hand (bench/README.md).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${IBFSIM:=$top_srcdir/ibfsim}"
N=${1:-1}
SEED=${2:-1}
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ibfs-cons-XXXXXX")
trap 'rm -rf "$T"' EXIT
# The scenarios' relative references resolve as from tests/data/scenario.
mkdir -p "$T/tests/data/scenario"
ln -s "$top_srcdir/platforms" "$T/platforms"
ln -s "$top_srcdir/examples" "$T/examples"
ln -s "$top_srcdir/tests/data/sm" "$T/tests/data/sm"
ln -s "$top_srcdir/tests/data/scenario/pkeys" "$T/tests/data/scenario/pkeys"
D="$T/tests/data/scenario"

python3 - "$top_srcdir/tests/fuzz/corpus" "$D" "$N" "$SEED" <<'PY'
import os, random, re, sys
corpus, out, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rnd = random.Random(seed)
words = ["0", "1", "-1", "4096", "0x8001", "65536", "1e3", "99999999999999999999",
         "ns", "us", "KiB", "Gb/s", "m", "", " ", "EDR", "HDR", "rc", "ud",
         "write", "read", "send", "ib", "roce", "minhop", "ftree", "node1",
         "sw1", "full", "4", "12", "1.5"]
def mutate(text):
    lines = text.split("\n")
    k = rnd.randrange(7)
    if k == 0:   # a number changed
        nums = list(re.finditer(r"\d+", text))
        if nums:
            m = rnd.choice(nums)
            return text[:m.start()] + rnd.choice(words) + text[m.end():]
    if k == 1:   # an attribute value replaced
        vals = list(re.finditer(r'="([^"]*)"', text))
        if vals:
            m = rnd.choice(vals)
            return text[:m.start(1)] + rnd.choice(words) + text[m.end(1):]
    if k == 2:   # an attribute dropped
        atts = list(re.finditer(r' [a-z_-]+="[^"]*"', text))
        if atts:
            m = rnd.choice(atts)
            return text[:m.start()] + text[m.end():]
    if k == 3 and len(lines) > 1:   # a line dropped
        del lines[rnd.randrange(len(lines))]
        return "\n".join(lines)
    if k == 4:   # a line repeated
        i = rnd.randrange(len(lines))
        lines.insert(i, lines[i])
        return "\n".join(lines)
    if k == 5:   # cut short
        return text[:rnd.randrange(len(text) + 1)]
    # an attribute's value taken from another attribute
    vals = list(re.finditer(r'="([^"]*)"', text))
    if len(vals) > 1:
        a, b = rnd.sample(vals, 2)
        return text[:a.start(1)] + b.group(1) + text[a.end(1):]
    return text
for kind in ("scenario", "fabric_xml"):
    d = os.path.join(corpus, kind)
    for name in sorted(os.listdir(d)):
        text = open(os.path.join(d, name), encoding="utf-8", errors="replace").read()
        for i in range(n):
            t = text
            for _ in range(1 + rnd.randrange(2)):
                t = mutate(t)
            prefix = "s" if kind == "scenario" else "f"
            with open(os.path.join(out, "%s-%s-%d.xml" % (prefix, name[:-4] if name.endswith(".xml") else name, i)), "w") as f:
                f.write(t)
PY

fail=0 total=0
for f in "$D"/s-*.xml; do
	total=$((total + 1))
	"$IBFSIM" validate "$f" >"$T/v.out" 2>&1; v=$?
	# A scenario mutated into a fabric file (or seeds that are fabrics):
	# run takes scenarios only.
	grep -q ': valid fabric:' "$T/v.out" && continue
	timeout 120 "$IBFSIM" run "$f" --until 1us >"$T/r.out" 2>&1; r=$?
	bad=""
	case "$v:$r" in
	0:2) bad="validate accepts, run refuses" ;;
	2:0) bad="validate refuses, run accepts" ;;
	[02]:[012]) ;;
	*) bad="exit statuses validate $v, run $r" ;;
	esac
	if [ -n "$bad" ]; then
		fail=$((fail + 1))
		cp "$f" "${KEEP:-$T}/" 2>/dev/null
		echo "FAIL $(basename "$f"): $bad"
		sed 's/^/  validate: /' "$T/v.out" | tail -3
		sed 's/^/  run: /' "$T/r.out" | tail -3
	fi
done
for f in "$D"/f-*.xml; do
	total=$((total + 1))
	"$IBFSIM" validate "$f" >"$T/v.out" 2>&1; v=$?
	case $v in
	0|2) ;;
	*) fail=$((fail + 1)); echo "FAIL $(basename "$f"): validate exit $v"
	   tail -3 "$T/v.out" ;;
	esac
done
echo "consistency: $total mutants, $fail disagreements"
[ $fail -eq 0 ]
