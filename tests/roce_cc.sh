#!/bin/sh
# SPDX-License-Identifier: MIT
# HPCC and TIMELY end to end (src/hca/cc_hpcc.c, cc_timely.c), a 16:1
# incast of 4 MiB writes on a one-switch star at 100 Gb/s with 1,024-byte
# packets (platforms/star-17.xml), against the same incast with PFC
# alone (cc="none"):
# - examples/roce_incast_hpcc.xml: every message completes, nothing is
#   dropped, and no pause frame goes (the queue toward node1 never
#   reaches PFC's XOFF, where with PFC alone it sends thousands). The
#   buffer's peak is the first round trip's burst, at most the 16 first
#   windows: T = 2 (2 x 10 ns + 400 ns) + (1,148 + 128) x 80 ps =
#   942.08 ns (2 links of 2 m, generic-100g's 400 ns, the data and ACK
#   frames with the 42-byte telemetry field: eth_base_rtt.c), B T =
#   11,776 bytes, sent as ceil(11,776 / 1,148) = 11 frames of 1,128
#   buffer bytes (the First 16 more): 16 x (11 x 1,128 + 16) = 198,784
#   bytes, where PFC alone fills megabytes; on average less than two
#   frames (2 x 1,128 bytes) wait behind a data frame as it leaves the
#   switch, first burst included (the telemetry's own view,
#   int_queue_mean_bytes); the link into node1 is busy at least 80% of
#   the run (the rest: the first windows' cut and the growth back, at
#   W_AI = R_AI T = 4.7 bytes a round);
# - examples/roce_incast_timely.xml: every message completes, and the
#   senders' rate falls as the queue and the RTT rise: the lowest rate a
#   sender reached (cc.rate_min_bps) is TIMELY's 1 Gb/s floor, where it
#   started at 100 Gb/s; fewer pause frames than PFC alone sends;
# - a parameter out of its range refused with FILE:LINE and exit 2.
# Needs python3 to read the JSON (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
top=$(cd "$top_srcdir" && pwd) || exit 99
ex="$top/examples"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
. "$top_srcdir/tests/run_lib.sh"
# The link into node1's utilization (the switch's side sends to it).
into_node1="[l['utilization_ba'] if l['a'] == 'node1:1' else \
l['utilization_ab'] for l in j['links'] if 'node1:1' in (l['a'], l['b'])][0]"

run hpcc "$ex/roce_incast_hpcc.xml"
sed -e 's/cc="hpcc"/cc="none"/' -e "s|\.\./platforms|$top/platforms|" \
	"$ex/roce_incast_hpcc.xml" >"$out/none.xml"
run none "$out/none.xml"
check hpcc "j['cc']['control'] == 'hpcc' and \
j['messages']['completed'] == 16 and j['messages']['failed'] == 0 and \
j['packets']['dropped'] == 0 and j['conservation']['ok']"
check hpcc "j['pfc']['pause_frames_sent'] == 0"
check none "j['pfc']['pause_frames_sent'] > 1000"
check hpcc "max(s['buffer_peak_bytes'] for s in j['switches']) <= 198784"
check none "max(s['buffer_peak_bytes'] for s in j['switches']) > 1000000"
check hpcc "j['switches'][0]['int_queue_mean_bytes'] < 2 * 1128"
check hpcc "$into_node1 >= 0.8"
check hpcc "0 < j['cc']['rate_min_bps'] < 100e9"

run timely "$ex/roce_incast_timely.xml"
check timely "j['cc']['control'] == 'timely' and \
j['messages']['completed'] == 16 and j['messages']['failed'] == 0 and \
j['packets']['dropped'] == 0 and j['conservation']['ok']"
check timely "j['cc']['rate_min_bps'] == 1000000000"
check timely "j['pfc']['pause_frames_sent'] < \
json.load(open('$out/none.json'))['pfc']['pause_frames_sent']"

# Out of range: FILE:LINE, what is wrong, what is expected, exit 2.
sed -e 's|cc="hpcc"/>|cc="hpcc">\n    <cc param="eta" value="2"/>\n  </transport>|' \
	-e "s|\.\./platforms|$top/platforms|" \
	"$ex/roce_incast_hpcc.xml" >"$out/bad.xml"
"$IBFSIM" run "$out/bad.xml" >"$out/bad.txt" 2>&1
st=$?
if [ "$st" -eq 2 ] && grep -q "bad.xml:15: <cc>: eta=\"2\" is out of range: \
expected 0.01 to 1" "$out/bad.txt"; then
	ok
else
	bad "bad eta: exit $st: $(cat "$out/bad.txt")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
