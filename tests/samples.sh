#!/bin/sh
# SPDX-License-Identifier: MIT
# Samples on request (--sample, <sample>; src/scenario/sampler.c), on the
# star (100 Gb/s, 2 m) with a 1 MiB switch buffer under roce, node1 and
# node2 writing 1 MiB each to node3, stopped at 60 us, sampled every 1 us:
# - rows = duration / interval exactly: 60 samples, so 60 x 8 linked
#   ports = 480 rows of samples_ports.csv and 60 x 4 QPs = 240 of
#   samples_qps.csv, every QP at the line rate (no congestion control);
#   one event an interval: the run executes exactly 60 events more than
#   without samples;
# - the queue toward node3 (sw1 port 3, priority 0) rises: two senders
#   into one output at the same rate, it grows by one output's rate in
#   frame bytes, 12,500 B/us x 4,158 / 4,178 = 12,440 B/us (4,158-byte
#   frames, 20 bytes of preamble and gap each), within a frame of
#   12,440 k bytes at k = 1 to 10 us, each sample above the last;
# - PFC: the pause state of node1's and node2's ports shows 1 while the
#   switch pauses them: the samples at 1 hold pause/1 us the time
#   pfc.csv says each was paused, within 1 us per pause (its start and
#   end each fall between two samples), and 0 on the other priorities;
# - the timeline has the samples as counters ("ph":"C"), the queue's
#   first value that of the first row;
# - under ib the same file gives floor(93.928 us / 1 us) = 93 samples
#   (the stop counts from the fabric up, after the SM's sweep), no pause,
#   the switch's input buffers of ports 1 and 2 in bytes;
# - a quiet stretch (a second write starting at 200 us, the fabric idle
#   between): rows every 1 us without a gap up to the run's end, written
#   with fewer events than samples (the sampler rests while nothing moves);
# - with sampling off nothing changes: the events are those of a run
#   without it (the identity check covers every example's results);
# - --sample without a file to write, a zero or unitless interval, and
#   <sample interval="0us"> or a second <sample> are refused (exit 2).
# Needs python3 (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=$(pwd)}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# py NAME EXPR: EXPR true over the CSV files of $out/NAME (rows(F)) and
# its JSON (j).
py() {
	if python3 -c "import csv, json, sys
d = sys.argv[1]
rows = lambda f: list(csv.DictReader(open(d + '/' + f)))
j = json.load(open(d + '.json'))
sys.exit(0 if ($2) else 1)" "$out/$1" 2>"$out/py.err"; then ok
	else bad "$1: not ($2) $(cat "$out/py.err")"; fi
}

sed 's|<switch id="sw1" ports="8"/>|<switch id="sw1" ports="8" shared-buffer="1MiB"/>|' \
	"$top_srcdir/platforms/star.xml" >"$out/star.xml"
cat >"$out/inc.xml" <<EOF
<?xml version="1.0"?>
<scenario version="1" name="sampled-incast">
  <fabric file="star.xml"/>
  <transport model="roce"/>
  <traffic>
    <message src="node1" dst="node3" op="write" size="1MiB"/>
    <message src="node2" dst="node3" op="write" size="1MiB"/>
  </traffic>
  <stop at="60us"/>
  <sample interval="1us"/>
</scenario>
EOF
sed '/<sample/d' "$out/inc.xml" >"$out/plain.xml"

"$IBFSIM" run "$out/inc.xml" --quiet --csv "$out/a" --json "$out/a.json" \
	--trace "$out/a.trace" >"$out/a.txt" 2>&1 && ok ||
	bad "sampled run: $(cat "$out/a.txt")"
"$IBFSIM" run "$out/plain.xml" --quiet --csv "$out/p" \
	--json "$out/p.json" >"$out/p.txt" 2>&1 && ok ||
	bad "plain run: $(cat "$out/p.txt")"
grep -qF "samples: 60, every 1000.000 ns: $out/a/samples_ports.csv, \
$out/a/samples_qps.csv, counters in the timeline" "$out/a.txt" && ok ||
	bad "text: $(cat "$out/a.txt")"
py a "j['sim_time_ps'] == 60000000 and len(rows('samples_ports.csv')) == \
60 * 8 and len(rows('samples_qps.csv')) == 60 * 4"
py a "sorted(set(float(r['time_ns']) for r in rows('samples_ports.csv'))) \
== [1000.0 * k for k in range(1, 61)]"
py a "all(int(r['rate_bps']) == 100000000000 for r in rows('samples_qps.csv'))"
events=$(python3 -c "import json; print(json.load(open('$out/p.json'))['events'])")
py a "j['events'] == $events + 60"
# The queue toward node3 as it rises.
py a "(lambda q: all(abs(q[k - 1] - 12440 * k) <= 4174 for k in range(1, 11)) \
and all(q[k] > q[k - 1] for k in range(1, 10)))([int(r['bytes_0']) for r in \
rows('samples_ports.csv') if r['node'] == 'sw1' and r['port'] == '3'])"
# The pauses against pfc.csv.
for n in node1 node2; do
	py a "(lambda v, ps: sum(v) > 0 and abs(sum(v) * 10**6 - ps) <= 10**6 * \
sum(1 for i, x in enumerate(v) if x and (i == 0 or not v[i - 1])))(\
[int(r['paused_0']) for r in rows('samples_ports.csv') if r['node'] == '$n'], \
[int(r['paused_ps']) for r in rows('pfc.csv') if r['node'] == '$n'][0])"
done
py a "all(r['paused_%d' % c] == '0' for r in rows('samples_ports.csv') \
for c in range(1, 8))"
# The timeline's counters.
python3 - "$out/a.trace" "$out/a/samples_ports.csv" <<'PY' && ok ||
import csv, json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
c = [e for e in ev if e['ph'] == 'C' and e['name'] == 'port 3 queue bytes'
     and e['ts'] == 1.0]
r = [x for x in csv.DictReader(open(sys.argv[2]))
     if x['node'] == 'sw1' and x['port'] == '3'][0]
assert len(c) == 1 and c[0]['args']['0'] == int(r['bytes_0']), c
assert any(e['ph'] == 'C' and e['name'] == 'port 1 paused' for e in ev)
PY
	bad "timeline counters"

# Under ib.
"$IBFSIM" run "$out/inc.xml" --model ib --quiet --csv "$out/ib" \
	--json "$out/ib.json" >"$out/ib.txt" 2>&1 && ok ||
	bad "ib run: $(cat "$out/ib.txt")"
py ib "j['sim_time_ps'] // 10**6 == 93 and len(rows('samples_ports.csv')) \
== 93 * 8"
py ib "all(r['paused_%d' % c] == '0' for r in rows('samples_ports.csv') \
for c in range(8)) and max(int(r['bytes_0']) for r in rows('samples_ports.csv') \
if r['node'] == 'sw1' and r['port'] in ('1', '2')) > 0"

# A quiet stretch.
cat >"$out/gap.xml" <<EOF
<?xml version="1.0"?>
<scenario version="1" name="gap">
  <fabric file="star.xml"/>
  <transport model="roce"/>
  <traffic>
    <message src="node1" dst="node3" op="write" size="4KiB"/>
    <message src="node2" dst="node3" op="write" size="4KiB" start="200us"/>
  </traffic>
</scenario>
EOF
"$IBFSIM" run "$out/gap.xml" --quiet --sample 1us --csv "$out/g" \
	--json "$out/g.json" >"$out/g.txt" 2>&1 && ok ||
	bad "gap run: $(cat "$out/g.txt")"
"$IBFSIM" run "$out/gap.xml" --quiet --json "$out/g0.json" >/dev/null 2>&1
events=$(python3 -c "import json; print(json.load(open('$out/g0.json'))['events'])")
py g "(lambda n: n == j['sim_time_ps'] // 10**6 and sorted(set(float(\
r['time_ns']) for r in rows('samples_ports.csv'))) == [1000.0 * k for k in \
range(1, n + 1)])(len(rows('samples_ports.csv')) // 8) and \
j['messages']['completed'] == 2"
py g "j['events'] - $events < j['sim_time_ps'] // 10**6"

# Refused.
refused() {
	"$IBFSIM" run "$@" >"$out/r.txt" 2>&1
	rc=$?
	[ "$rc" -eq 2 ] && ok || bad "$*: exit $rc: $(cat "$out/r.txt")"
}
refused "$out/plain.xml" --sample 1us
refused "$out/plain.xml" --sample 0us --csv "$out/x"
refused "$out/plain.xml" --sample 5 --csv "$out/x"
sed 's|<stop at="60us"/>|<stop at="60us"/><sample interval="0us"/>|' \
	"$out/plain.xml" >"$out/bad.xml"
refused "$out/bad.xml"
grep -qF "bad.xml:9: <sample> interval must be above 0" "$out/r.txt" &&
	ok || bad "zero interval: $(cat "$out/r.txt")"
sed 's|<sample interval="1us"/>|&<sample interval="2us"/>|' \
	"$out/inc.xml" >"$out/bad.xml"
refused "$out/bad.xml"
grep -qF "bad.xml:10: a second <sample>" "$out/r.txt" && ok ||
	bad "second <sample>: $(cat "$out/r.txt")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
