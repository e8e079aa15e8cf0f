#!/bin/sh
# SPDX-License-Identifier: MIT
# The timeline read by an independent JSON parser (Python's json module):
# tests/trace_demo writes a known run (see its header for the figures);
# the times below are computed here from them, in integer picoseconds:
# S = 2046 x 80 ps per packet, P = 5 us of cable, F = 6 x 80 ps per FCP,
# T = S + 2P + F the credit round trip. When the runner wires --trace,
# `ibfsim run --trace` on examples/rdma_write.xml is checked as well.
# Skips (77) without python3.
set -eu
command -v python3 >/dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }
: "${top_builddir:=.}" "${top_srcdir:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/trace_demo" "$tmp/demo.json"
test ! -e "$tmp/demo.json.part"

python3 - "$tmp/demo.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ev = doc["traceEvents"]
assert doc["displayTimeUnit"] == "ns"

def ps(x):
    # Microseconds with six decimals are whole picoseconds.
    return round(x * 1000000)

S, P, F = 2046 * 80, 5000000, 6 * 80
T = S + 2 * P + F
pk = [e for e in ev if e["ph"] == "X" and e.get("cat") == "packet"]
assert len(pk) == 8, len(pk)
for i, e in enumerate(pk):
    assert (e["pid"], e["tid"]) == (1, 1), e
    assert ps(e["ts"]) == (i // 4) * T + (i % 4) * S, (i, e["ts"])
    assert ps(e["dur"]) == S, e
    a = e["args"]
    assert (a["dlid"], a["slid"], a["vl"], a["psn"], a["bytes"]) == \
        (2, 1, 0, i, 2046), a
st = [e for e in ev if e.get("cat") == "stall"]
assert len(st) == 1, st
assert st[0]["name"] == "credit stall VL 0"
assert ps(st[0]["ts"]) == 4 * S and ps(st[0]["dur"]) == T - 4 * S, st
names = {(e["pid"], e["tid"], e["name"]): e["args"] for e in ev
         if e["ph"] == "M"}
assert names[(1, 0, "process_name")]["name"] == "a"
assert names[(2, 0, "process_name")]["name"] == "b"
assert names[(1, 1, "thread_name")]["name"] == "port 1"
assert names[(1, 515, "thread_name")]["name"] == "QP 3"
assert names[(2, 256, "thread_name")]["name"] == "subnet manager"
b = [e for e in ev if e["ph"] == "b"]
e_ = [e for e in ev if e["ph"] == "e"]
assert len(b) == 1 and len(e_) == 1 and b[0]["id"] == e_[0]["id"]
assert ps(b[0]["ts"]) == 2000000 and ps(e_[0]["ts"]) == 13000001
sw = [e for e in ev if e.get("cat") == "sm"]
assert len(sw) == 1 and ps(sw[0]["dur"]) == 1000000, sw
print("demo timeline: %d events checked" % len(ev))
PY

# The command line, once the runner writes the timeline.
if grep -q ibfs__trace_open "$top_srcdir/src/scenario/runner.c"; then
	"$IBFSIM" run "$top_srcdir/examples/rdma_write.xml" --quiet \
		--trace "$tmp/run.json" >/dev/null
	test ! -e "$tmp/run.json.part"
	python3 - "$tmp/run.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
pid = {e["args"]["name"]: e["pid"] for e in ev
       if e["ph"] == "M" and e["name"] == "process_name"}
pk = [e for e in ev if e["ph"] == "X" and e.get("cat") == "packet"]
w = [e for e in pk if e["name"].startswith("RDMA WRITE")
     and e["pid"] == pid["node1"]]
# 64 KiB in 4 KiB packets leave node1: First, 14 Middle, Last.
assert [e["name"] for e in w] == ["RDMA WRITE First"] + \
    ["RDMA WRITE Middle"] * 14 + ["RDMA WRITE Last"], w
assert any(e["name"] == "Acknowledge" for e in pk)
print("ibfsim run --trace: %d packet events" % len(pk))
PY
	# --trace-ports: the packets leaving leaf1:3 (an up link of the k=8
	# fat tree) only, as many as its PortXmitPkts.
	"$IBFSIM" run "$top_srcdir/examples/fat_tree_permutation.xml" --quiet \
		--no-data --trace "$tmp/p.json" --trace-ports leaf1:3 \
		--csv "$tmp/p" >/dev/null
	want=$(awk -F, '$1 == "leaf1" && $2 == 3 { print $6 }' "$tmp/p/ports.csv")
	python3 - "$tmp/p.json" "$want" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
pid = {e["args"]["name"]: e["pid"] for e in ev
       if e["ph"] == "M" and e["name"] == "process_name"}
pk = [e for e in ev if e["ph"] == "X" and e.get("cat") == "packet"]
assert len(pk) == int(sys.argv[2]) > 0, (len(pk), sys.argv[2])
assert all((e["pid"], e["tid"]) == (pid["leaf1"], 3) for e in pk)
print("--trace-ports leaf1:3: %d packet events" % len(pk))
PY
else
	echo "runner does not write --trace yet: command line part skipped"
fi
