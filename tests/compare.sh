#!/bin/sh
# SPDX-License-Identifier: MIT
# ibfsim compare as a user runs it (docs/results.md, "ibfsim compare"):
# - examples/roce_incast.xml under ib, roce and tcp: each column equals what
#   `ibfsim run --model M --json` reports for the same seed (latency p50,
#   p99 and max, aggregate, packets sent and dropped, the slowest flow
#   and Jain's index from the run's flows, the stall: PortXmitWait summed
#   over the links' two directions under ib, PFC pause time under roce),
#   and the equipment is the fabric's (6 switches, 8 NICs, 16 cables,
#   24 cabled switch ports, 16 cables of 2 m; two lengths listed longest
#   first);
# - docs/comparing.md holds the incast's rows as this binary prints them;
# - examples/compare_latency.xml: 64-byte writes slower under tcp (its
#   hosts linux-xeon) than under ib and roce, CPU seconds only under tcp,
#   none with --host-profile ideal;
# - examples/websearch_k8.xml: the FCT slowdown p50 and p99 of each
#   column are the run's, and a run without flows has none;
# - --seeds 2: six lines in compare.csv with seeds 1 and 2, and the same
#   figures (but the wall time) with --jobs 1 as with --jobs 2;
# - a run that deadlocks (examples/roce_ring_deadlock.xml) is a result:
#   the table is printed, says so, and the exit status is 1;
# - bad usage and bad input exit 2 with nothing on stdout: an unknown
#   model, a model not built, --seeds 0, an unknown option, a missing
#   scenario, a scenario with a fault in it (FILE:LINE), a scenario that
#   roce refuses (multicast), an output that cannot be written.
# Needs python3 to read the JSON (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
ex="$top_srcdir/examples"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

inc="$ex/roce_incast.xml"
if "$IBFSIM" compare "$inc" --json "$out/c.json" --csv "$out" \
	>"$out/c.txt" 2>&1; then ok; else bad "compare: $(cat "$out/c.txt")"; fi
for m in ib roce tcp; do
	"$IBFSIM" run "$inc" --model $m --quiet --json "$out/$m.json" \
		>/dev/null 2>&1 || bad "run --model $m"
done
# The figures of model m in the comparison against its own run's JSON.
if python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
c = json.load(open(d + "/c.json"))
bad = []
def eq(m, key, want):
    got = f[key]["mean"]
    if got is None or abs(got - want) > 1e-6 * max(1, abs(want)):
        bad.append("%s %s: %s, run says %s" % (m, key, got, want))
for col in c["models"]:
    m = col["model"]
    f = col["figures"]
    j = json.load(open("%s/%s.json" % (d, m)))
    lat = j["messages"]["latency_ns"]
    eq(m, "latency_p50_us", lat["p50"] / 1000)
    eq(m, "latency_p99_us", lat["p99"] / 1000)
    eq(m, "latency_max_us", lat["max"] / 1000)
    eq(m, "aggregate_gbps", j["throughput_gbps"]["aggregate"])
    eq(m, "packets_sent", j["packets"]["sent"])
    eq(m, "packets_dropped", j["packets"]["dropped"])
    eq(m, "packets_retransmitted", j["packets"]["retransmitted"])
    eq(m, "messages", j["messages"]["completed"])
    g = [x["gbps"] for x in j["flows"]]
    eq(m, "flow_min_gbps", min(g))
    eq(m, "jain", sum(g) ** 2 / (len(g) * sum(x * x for x in g)))
    if m == "ib":
        eq(m, "stall_us", sum(l["xmit_wait_ns_ab"] + l["xmit_wait_ns_ba"]
                              for l in j["links"]) / 1000)
    elif "pfc" not in j:
        pass
    else:
        eq(m, "stall_us", j["pfc"]["paused_ns"] / 1000)
    for k, v in (("switches", 6), ("nics", 8), ("cables", 16),
                 ("switch_ports", 24)):
        eq(m, k, v)
    if f["cable_lengths"] != "16 x 2 m":
        bad.append("%s cable_lengths: %s" % (m, f["cable_lengths"]))
    eq(m, "cpu_s", j["cpu"]["host_seconds"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
then ok; else bad "compare's figures differ from run's"; fi
grep -q "^  configured  *SM, minhop routing  *PFC 0x01 (DSCP)  *TCP CUBIC, PFC *$" \
	"$out/c.txt" && ok || bad "management row: $(grep configured "$out/c.txt")"
[ "$(wc -l <"$out/compare.csv")" -eq 4 ] && ok || bad "compare.csv lines"
# docs/comparing.md shows rows of this table: they must still be true.
missing=$(grep -E "^  (messages|latency|aggregate|slowest|Jain|packets|flow-control|deadlock) " \
	"$out/c.txt" | while IFS= read -r line; do
	grep -qxF -- "$line" "$top_srcdir/docs/comparing.md" || echo "$line"
done)
[ -z "$missing" ] && ok || bad "docs/comparing.md lacks: $missing"

# A flow workload: the FCT slowdown rows are the run's "fct" figures.
ws="$ex/websearch_k8.xml"
"$IBFSIM" compare "$ws" --json "$out/w.json" >/dev/null 2>&1 || bad "compare $ws"
for m in ib roce tcp; do
	"$IBFSIM" run "$ws" --model $m --quiet --json "$out/w$m.json" \
		>/dev/null 2>&1 || bad "run $ws --model $m"
done
python3 - "$out" <<'PY' && ok || bad "FCT slowdown rows differ from the runs'"
import json, sys
d = sys.argv[1]
for col in json.load(open(d + "/w.json"))["models"]:
    j = json.load(open("%s/w%s.json" % (d, col["model"])))
    if "fct" not in j:  # tcp: no closed-form ideal for its framing
        assert col["figures"]["fct_slowdown_p50"]["mean"] is None
        continue
    s = j["fct"]["fct_slowdown"]
    for p in ("p50", "p99"):
        got = col["figures"]["fct_slowdown_" + p]["mean"]
        assert abs(got - s[p]) < 1e-6, (col["model"], p, got, s[p])
PY
grep -q '"fct_slowdown_p50": {"mean": null' "$out/c.json" && ok ||
	bad "no flows, yet an FCT slowdown"

# Small messages (examples/compare_latency.xml, linux-xeon hosts under
# tcp): RDMA's latency under TCP's, and CPU only under tcp; with
# --host-profile ideal the hosts cost nothing.
lat="$ex/compare_latency.xml"
for hp in "" ideal; do
	"$IBFSIM" compare "$lat" ${hp:+--host-profile $hp} \
		--json "$out/lat$hp.json" >/dev/null 2>&1 || bad "compare $lat $hp"
done
python3 - "$out" <<'PY' && ok || bad "compare_latency's figures"
import json, sys
d = sys.argv[1]
def figs(f):
    return {c["model"]: c["figures"] for c in json.load(open(f))["models"]}
x, i = figs(d + "/lat.json"), figs(d + "/latideal.json")
p50 = {m: x[m]["latency_p50_us"]["mean"] for m in x}
assert p50["ib"] < p50["tcp"] and p50["roce"] < p50["tcp"], p50
assert x["ib"]["cpu_s"]["mean"] == 0 and x["roce"]["cpu_s"]["mean"] == 0
assert x["tcp"]["cpu_s"]["mean"] > 0 and i["tcp"]["cpu_s"]["mean"] == 0, \
    (x["tcp"]["cpu_s"], i["tcp"]["cpu_s"])
PY

# Cables by length, the longest first.
cat >"$out/mix.xml" <<'XML'
<fabric version="1" name="mix">
  <defaults speed="EDR" width="4x" cable="2m"/>
  <switch id="s1" ports="4"/><switch id="s2" ports="4"/>
  <hca id="a" ports="1"/><hca id="b" ports="1"/>
  <link a="a:1" b="s1:1"/><link a="b:1" b="s2:1"/>
  <link a="s1:2" b="s2:2" cable="10m"/><link a="s1:3" b="s2:3" cable="10m"/>
</fabric>
XML
cat >"$out/mixs.xml" <<XML
<scenario version="1" name="mix"><fabric file="$out/mix.xml"/>
<traffic><message src="a" dst="b" op="write" size="4KiB"/></traffic>
</scenario>
XML
"$IBFSIM" compare "$out/mixs.xml" --models ib >"$out/mix.txt" 2>&1
grep -q "^  cables by length  *2 x 10 m, 2 x 2 m *$" "$out/mix.txt" && ok ||
	bad "cables by length: $(grep length "$out/mix.txt")"

# --seeds 2, with one and two jobs: the same figures but the wall time.
for j in 1 2; do
	mkdir -p "$out/j$j"
	"$IBFSIM" compare "$inc" --seeds 2 --jobs $j --csv "$out/j$j" \
		>/dev/null 2>&1 || bad "--seeds 2 --jobs $j"
	python3 -c "import csv,sys
r = list(csv.DictReader(open(sys.argv[1])))
for x in r: del x['wall_s']
print(r)" "$out/j$j/compare.csv" >"$out/j$j.rows"
done
cmp -s "$out/j1.rows" "$out/j2.rows" && ok || bad "--jobs 1 and 2 differ"
[ "$(cut -d, -f1,2 "$out/j1/compare.csv" | tr '\n' ' ')" = \
	"model,seed ib,1 ib,2 roce,1 roce,2 tcp,1 tcp,2 " ] && ok ||
	bad "seeds: $(cut -d, -f1,2 "$out/j1/compare.csv")"

# A deadlock is a result: the table, the line, exit 1.
"$IBFSIM" compare "$ex/roce_ring_deadlock.xml" --models roce >"$out/d.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || bad "deadlock: exit $rc"
grep -q "^  deadlock  *yes" "$out/d.txt" && ok || bad "deadlock row"
grep -q "^roce, seed 1: the run failed (deadlock)" "$out/d.txt" && ok ||
	bad "deadlock line: $(tail -2 "$out/d.txt")"

# refused ARGS... PATTERN: exit 2, PATTERN on stderr, nothing on stdout.
refused() {
	pat=$1
	shift
	"$IBFSIM" compare "$@" >"$out/r.out" 2>"$out/r.err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$out/r.out" ] &&
		grep -q "$pat" "$out/r.err"; then
		ok
	else
		bad "compare $*: exit $rc, $(cat "$out/r.err" "$out/r.out")"
	fi
}
refused "'foo' is not one of ib, roce, iwarp, tcp" "$inc" --models ib,foo
refused "model iwarp is not built yet" "$inc" --models iwarp
refused "ib twice" "$inc" --models ib,ib
refused "host-profile laptop: not one of" "$inc" --host-profile laptop
refused "seeds takes a whole number from 1 to 1000" "$inc" --seeds 0
refused "unknown option '--bogus'" "$inc" --bogus
refused "which scenario" --models ib
refused "no-such.xml" "$out/no-such.xml"
refused "bad_fault.xml:[0-9]*:" "$top_srcdir/tests/data/scenario/bad_fault.xml"
refused "under roce: .*multicast" "$ex/multicast.xml"
refused "cannot write" "$inc" --json "$out/no/such/dir/c.json"

echo "compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
