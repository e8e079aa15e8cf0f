#!/bin/sh
# SPDX-License-Identifier: MIT
# Shift permutations run packet by packet over ftree's tables, on the
# 3-level fat tree of 4-port switches (16 HCAs: 4 pods of 2 leaves of 2).
# HCA i writes 1 MiB to HCA i+s (kind="shift", topology order).
#
# - Shifts by the pod size and half the tree (s = 4, 8, 12) cross the
#   core: every flow must run within 2% of a lone exchange across the core
#   (node1 -> node5 and node5 -> node1 at the same time: in a shift every
#   HCA sends one flow and receives one, so its link carries the other
#   flow's acknowledgements, as here). The one-way flow is printed beside.
# - For those shifts and the leaf-size shift (s = 2), no link direction
#   may carry the data of two flows: one flow is 256 packets of 4096
#   payload bytes, each with LRH 8, BTH 12, ICRC 4 and VCRC 2 bytes, and a
#   RETH of 16 on the first (IBA 9.4.1; 5.2.5), so D = 256 x 4122 + 16 =
#   1,055,248 bytes; a direction carrying two flows would send 2D. The
#   acknowledgements add little (a 30-byte ACK per few packets), so the
#   test requires every direction to send less than 1.5 D.
# Before Zahavi's main path in route_ftree.c every shift here ran at about
# half rate (two flows on some up links). Skips (77) without python3.
set -eu
command -v python3 >/dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }
: "${IBFSIM:?IBFSIM must name the ibfsim binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ibfs-shift.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$IBFSIM" topo gen fat-tree --k 4 --levels 3 -o "$tmp/ft.xml"

# scenario NAME TRAFFIC: a scenario on ft.xml routed by ftree.
scenario() {
	printf '%s\n' '<?xml version="1.0"?>' \
		"<scenario version=\"1\" name=\"$1\">" \
		'  <fabric file="ft.xml"/>' \
		'  <subnet-manager routing="ftree"/>' \
		"  <traffic>$2</traffic>" \
		'</scenario>' >"$tmp/$1.xml"
	"$IBFSIM" run "$tmp/$1.xml" --no-data --quiet --json "$tmp/$1.json" \
		>/dev/null
}

w='op="write" size="1MiB"'
scenario one "<message src=\"node1\" dst=\"node5\" $w/>"
scenario pair "<message src=\"node1\" dst=\"node5\" $w/>
<message src=\"node5\" dst=\"node1\" $w/>"
for s in 2 4 8 12; do
	scenario "shift$s" "<pattern kind=\"shift\" shift=\"$s\" $w/>"
done

python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
load = lambda n: json.load(open("%s/%s.json" % (d, n)))
one = load("one")["flows"][0]["gbps"]
pair = load("pair")["flows"]
assert len(pair) == 2 and all(f["bytes"] == 1 << 20 for f in pair), pair
ref = min(f["gbps"] for f in pair)
print("one-way flow %.3f Gb/s, exchange %.3f Gb/s" % (one, ref))
D = 256 * (4096 + 8 + 12 + 4 + 2) + 16
bad = 0
for s in (2, 4, 8, 12):
    j = load("shift%d" % s)
    fl = j["flows"]
    assert len(fl) == 16, len(fl)
    for i, f in enumerate(fl):
        assert (f["src"], f["dst"], f["bytes"]) == \
            ("node%d" % (i + 1), "node%d" % ((i + s) % 16 + 1), 1 << 20), f
    lo = min(f["gbps"] for f in fl)
    hi = max(f["gbps"] for f in fl)
    print("shift %2d: flows %.3f to %.3f Gb/s" % (s, lo, hi))
    if s != 2 and not (abs(lo - ref) <= 0.02 * ref and
                       abs(hi - ref) <= 0.02 * ref):
        print("FAIL: shift %d flows %.3f-%.3f not within 2%% of %.3f"
              % (s, lo, hi, ref))
        bad += 1
    sent = 0
    for l in j["links"]:
        for dr in ("ab", "ba"):
            b = l["tx_bytes_" + dr]
            sent += b
            if b >= 1.5 * D:
                print("FAIL: shift %d: %s-%s (%s) sends %d bytes, two "
                      "flows' data" % (s, l["a"], l["b"], dr, b))
                bad += 1
    # Every flow crosses at least the two HCA links: 16 x 2 x D at least.
    assert sent >= 32 * D, sent
sys.exit(1 if bad else 0)
PY
