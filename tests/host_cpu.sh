#!/bin/sh
# SPDX-License-Identifier: MIT
# The hosts' CPU under --model tcp (src/host/tcp_host_cpu.c, profiles in
# src/host/host_profile.c), as a user runs it. The pair of
# tcp_scenarios.sh: two hosts through one store-and-forward switch (EDR
# 4x, 80 ps a byte; 2 m cables, 10,000 ps; switch latency 500 ns).
# linux-xeon: syscall 100 ns, copy user to kernel 100 ps/B, kernel to
# user 200 ps/B, TCP/IP transmit 120 ns a segment, interrupt 500 ns,
# rx-usecs 3 us, rx-frames 32, GRO on (250 ns a run of data frames of
# one connection, 120 ns a frame otherwise), wake-up 2 us, recv() of at
# most 128 KiB; the application's core and the network core apart.
# - latency: one 4 KiB SEND at 1 ms, after the handshake. Sender: send()
#   100,000 + 4,096 x 100 = 509,600 ps on the application's core; the
#   three segments (1,448, 1,448, 1,200 B; 1,538, 1,538, 1,290 B on the
#   wire, 123,040, 123,040 and 103,200 ps) are transmit work of
#   120,000 ps each on the network core, reaching the NIC at 629,600,
#   749,600 and 869,600. The NIC sends them back to back from 629,600:
#   ends 752,640, 875,680 (the second waits for the first), 978,880.
#   The switch has each tail 10,000 ps later, holds it 500,000 ps, sends
#   when its output is free: ends 1,385,680, 1,508,720 and 1,611,920
#   (1,488,880 ready, waiting), tails at b 10,000 ps later: 1,395,680,
#   1,518,720, 1,621,920. b's NIC interrupts rx-usecs after the first:
#   4,395,680; the network core takes the interrupt and one GRO run of
#   the three, 500,000 + 250,000: the segments reach TCP at 5,145,680.
#   The reader slept: a wake-up of 2,000,000, then recv() of the 4,096
#   readable bytes, 100,000 + 4,096 x 200 = 919,200: it has the last
#   byte at 8,064,880 ps, a latency of 8,064.880 ns.
# - conservation: the CPU seconds are the steps' costs. a: send()
#   509,600; transmit of the SYN, the handshake's ACK and three
#   segments, 5 x 120,000; the SYN-ACK's interrupt and receive, 500,000
#   + 120,000 (a pure ACK is not a GRO run): 1,729,600 ps. b: the SYN's
#   and the ACK's interrupts and receive, 2 x 620,000; the SYN-ACK's and
#   the data's ACK's transmit (its second full segment is ACKed at once),
#   2 x 120,000; the data's interrupt 750,000; wake-up and recv()
#   2,919,200: 5,149,200 ps. Total 6,878,800 ps; the ACK reaches a after
#   the run's end (the last byte read). Interrupts: a 1, b 3.
# - coalescing: rx-frames="1" interrupts on every frame. b's frames
#   (tails at 1,395,680, 1,518,720, 1,621,920) are three interrupts of
#   500,000 + 250,000 on its network core, back to back from 1,395,680:
#   the first segment reaches TCP at 2,145,680 and wakes the reader
#   (2,000,000, to 4,145,680), the others at 2,895,680 (the ACK of the
#   second full segment, transmit 120,000 after the third) and
#   3,645,680; the reader's recv() then has all 4,096 bytes: 100,000 +
#   819,200, done at 5,064,880 ps, 3 us sooner than with coalescing.
#   b: 5 interrupts (SYN, ACK, three frames), 2 x 620,000 + 120,000 +
#   3 x 750,000 + 120,000 + 2,919,200 = 6,649,200 ps. a: the ACK leaves
#   b at 3,765,680, 90 bytes (7,200 ps) through the switch: at a at
#   4,300,080, at once an interrupt: 2 interrupts, 1,729,600 + 620,000 =
#   2,349,600 ps. rx-frames="64" leaves it as the default (32): rx-usecs
#   rules, 8,064,880 ps, 3 and 1 interrupts.
# - bulk: 64 MiB. The bound is b's application core: with the receive
#   buffer (6 MiB) ahead of it, each recv() reads 128 KiB in
#   100,000 + 131,072 x 200 = 26,314,400 ps, 131,072 x 8 / 26,314.4 =
#   39.8472 Gb/s of goodput, below the link's 100 x 1,448 / 1,538 =
#   94.148. The other cores are below it: per 1,448-byte segment (290.7
#   ns at that rate) a's network core spends 120 ns transmitting, 60 ns
#   on half an ACK, and its share of the interrupts (ACKs every 581 ns
#   gather ~5 in rx-usecs: ~50 ns); b's, 60 ns on half an ACK and its
#   share of the batches; a's application core 144.8 ns copying. The
#   message's rate within 1% of 39.8472 Gb/s; b's interrupts at least
#   its frames / 32 (rx-frames).
# - ideal: results as without the attribute; CPU 0 under tcp, ib and
#   roce, every host listed; compare's cpu_s = run's cpu.host_seconds;
#   bad profile names exit 2 with the list (and FILE:LINE).
# Needs python3 to read the JSON (skips, 77, without it).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
run() {
	name=$1 file=$2
	shift 2
	if "$IBFSIM" run "$file" --quiet --json "$out/$name.json" "$@" \
		>"$out/$name.txt" 2>&1; then
		ok
	else
		bad "$name: exit $?: $(cat "$out/$name.txt")"
	fi
}
check() {
	if python3 -c "import json,sys; j=json.load(open(sys.argv[1]));
c=j['cpu']; h={x['node']: x for x in c['hosts']}
sys.exit(0 if ($2) else 1)" "$out/$1.json" 2>"$out/py.err"; then
		ok
	else
		bad "$1: not ($2) $(cat "$out/py.err")"
	fi
}

cat >"$out/pair.xml" <<'XML'
<?xml version="1.0"?>
<fabric version="1" name="tcp-pair">
  <defaults speed="EDR" width="4x" mtu="4096" data-vls="1" cable="2m"/>
  <switch id="sw1" ports="2" latency="500ns" store-and-forward="true"/>
  <hca id="a" ports="1"/>
  <hca id="b" ports="1"/>
  <link a="a:1" b="sw1:1"/>
  <link a="b:1" b="sw1:2"/>
</fabric>
XML
msg() { # name size transport-attributes
	cat >"$out/$1.xml" <<XML
<?xml version="1.0"?>
<scenario version="1" name="$1">
  <fabric file="pair.xml"/>
  <transport model="tcp"$3/>
  <traffic>
    <message op="send" src="a" dst="b" size="$2" start="1ms"/>
  </traffic>
</scenario>
XML
}

msg lat 4KiB ' host-profile="linux-xeon"'
run lat "$out/lat.xml"
check lat "j['messages']['latency_ns']['min'] == 8064.88 and \
j['messages']['completed'] == 1"
check lat "abs(c['host_seconds'] - 6878.8e-9) < 1e-15 and \
abs(h['a']['cpu_seconds'] - 1729.6e-9) < 1e-15 and \
abs(h['b']['cpu_seconds'] - 5149.2e-9) < 1e-15"
check lat "abs(c['host_seconds'] - sum(x['cpu_seconds'] for x in \
c['hosts'])) < 1e-15 and abs(c['seconds_per_gb'] - 6878.8e-9 / 4096e-9) < 1e-9"
check lat "h['a']['interrupts'] == 1 and h['b']['interrupts'] == 3"
grep -q '^cpu: 0.000007 s on the hosts'"'"' data path, 1.679395 s per GB' \
	"$out/lat.txt" && ok || bad "cpu line: $(grep ^cpu "$out/lat.txt")"

msg f1 4KiB ' host-profile="linux-xeon" rx-frames="1"'
run f1 "$out/f1.xml"
check f1 "j['messages']['latency_ns']['min'] == 5064.88 and \
h['a']['interrupts'] == 2 and h['b']['interrupts'] == 5 and \
abs(h['a']['cpu_seconds'] - 2349.6e-9) < 1e-15 and \
abs(h['b']['cpu_seconds'] - 6649.2e-9) < 1e-15"
msg f64 4KiB ' host-profile="linux-xeon" rx-frames="64"'
run f64 "$out/f64.xml"
check f64 "j['messages']['latency_ns']['min'] == 8064.88 and \
h['a']['interrupts'] == 1 and h['b']['interrupts'] == 3"

msg bulk 64MiB ' host-profile="linux-xeon"'
run bulk "$out/bulk.xml" --csv "$out/bulkcsv"
check bulk "abs(j['throughput_gbps']['aggregate'] - 131072 * 8 / 26314.4) \
< 0.01 * 131072 * 8 / 26314.4"
check bulk "h['b']['interrupts'] >= 64 * 2**20 / 1448 / 32 and \
0 < h['b']['busy'] <= 1 and 0 < h['a']['busy'] <= 1"
head="node,cpu_seconds,busy,interrupts"
[ "$(head -1 "$out/bulkcsv/hosts.csv")" = "$head" ] &&
	[ "$(sed -n 2p "$out/bulkcsv/hosts.csv" | cut -d, -f1,4)" = \
	"a,$(python3 -c "import json; print(json.load(open('$out/bulk.json'))\
['cpu']['hosts'][0]['interrupts'])")" ] &&
	[ "$(wc -l <"$out/bulkcsv/hosts.csv")" -eq 3 ] && ok ||
	bad "hosts.csv: $(cat "$out/bulkcsv/hosts.csv")"

# ideal: the same results as no host-profile at all, and no CPU.
msg plain 4KiB ''
run plain "$out/plain.xml"
run ideal "$out/lat.xml" --host-profile ideal
# (less the wall-clock figures and the scenario's name)
strip() { grep -v -e '"wall_s"' -e '"events"' -e '"scenario"' "$1"; }
strip "$out/plain.json" >"$out/plain.s"
strip "$out/ideal.json" >"$out/ideal.s"
cmp -s "$out/plain.s" "$out/ideal.s" && ok ||
	bad "ideal differs from no profile: $(diff "$out/plain.s" "$out/ideal.s")"
check ideal "j['messages']['latency_ns']['min'] == 992.32 and \
c['host_seconds'] == 0 and len(c['hosts']) == 2"
# --host-profile overrides the scenario's: the same CPU as the attribute.
run over "$out/plain.xml" --host-profile linux-xeon
check over "j['messages']['latency_ns']['min'] == 8064.88"
for m in ib roce; do
	run "$m" "$out/lat.xml" --model $m
	check "$m" "c['host_seconds'] == 0 and c['seconds_per_gb'] == 0 and \
[x['node'] for x in c['hosts']] == ['a', 'b'] and \
all(x['cpu_seconds'] == 0 and x['busy'] == 0 for x in c['hosts'])"
done

# compare: the cpu_s row is each model's cpu.host_seconds.
if "$IBFSIM" compare "$out/lat.xml" --json "$out/cmp.json" >/dev/null 2>&1 &&
	python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
f={m['model']: m['figures']['cpu_s']['mean'] for m in c['models']}
sys.exit(0 if abs(f['tcp'] - 6878.8e-9) < 1e-15 and f['ib'] == 0 and \
f['roce'] == 0 else 1)" "$out/cmp.json"; then ok; else bad "compare cpu_s"; fi

# Names not known: exit 2 with the list.
"$IBFSIM" run "$out/plain.xml" --host-profile nope >"$out/e1" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "host-profile nope: not one of ideal, linux-xeon" \
	"$out/e1" && ok || bad "--host-profile nope: exit $rc: $(cat "$out/e1")"
sed 's/linux-xeon/nope/' "$out/lat.xml" >"$out/badp.xml"
"$IBFSIM" run "$out/badp.xml" >"$out/e2" 2>&1
rc=$?
want='badp.xml:4: host-profile="nope" is not one of: ideal, linux-xeon'
[ $rc -eq 2 ] && grep -qF "$want" "$out/e2" && ok ||
	bad "host-profile=nope: exit $rc: $(cat "$out/e2")"

# Coalescing that would never interrupt, and too many frames: refused.
msg never 4KiB ' host-profile="linux-xeon" rx-usecs="0us" rx-frames="0"'
"$IBFSIM" run "$out/never.xml" >"$out/e3" 2>&1
rc=$?
want='never.xml:4: rx-usecs="0" with rx-frames="0" never interrupts'
[ $rc -eq 2 ] && grep -qF "$want" "$out/e3" && ok ||
	bad "rx 0/0: exit $rc: $(cat "$out/e3")"
msg many 4KiB ' rx-frames="65536"'
"$IBFSIM" run "$out/many.xml" >"$out/e4" 2>&1
rc=$?
want='many.xml:4: rx-frames="65536": 0 to 65535 frames expected'
[ $rc -eq 2 ] && grep -qF "$want" "$out/e4" && ok ||
	bad "rx-frames 65536: exit $rc: $(cat "$out/e4")"

echo "host_cpu: $pass passed, $fail failed"
[ $fail -eq 0 ]
