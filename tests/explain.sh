#!/bin/sh
# SPDX-License-Identifier: MIT
# ibfsim explain: one message's steps from a run of the model.
# - a 4 KiB RDMA WRITE host1 -> sw1 -> host2 under ib, connectx-4-edr:
#   the doorbell 200 ns and the send and receive pipelines 120 ns each
#   (the profile's, src/hca/profile.c); the WRITE Only on each wire
#   4,138 bytes (4,096 + LRH 8 + BTH 12 + RETH 16 + ICRC 4 + VCRC 2) in
#   331.040 ns (80 ps a byte at EDR) plus 10 ns of 2 m cable; the switch
#   forwards its head after 100.640 ns (100 ns latency + the 8-byte LRH);
#   the ACK, 30 bytes, comes back the same way; no host CPU in any step;
# - under roce the same WRITE is 4,194 bytes on the wire (4,096 + 8
#   preamble + 14 Ethernet + 20 IPv4 + 8 UDP + 12 BTH + 16 RETH + 4 ICRC +
#   4 FCS + 12 gap): 335.520 ns;
# - the total equals `ibfsim run`'s latency of the same message on the
#   same fabric and profile (platforms/star.xml, node1 to node4);
# - with the ideal profile every HCA step takes 0 ns; a READ shows the
#   responder's set-up and the requester's DMA write; a fat tree's first
#   to last HCA crosses 3 switches each way;
# - --svg draws the ladder (gnuplot; skipped without it);
# - docs/teaching.md holds the default run's output and the READ's last
#   lines as this binary prints them;
# - --models ib,roce prints both runs as each prints alone;
# - bad options exit 2 with nothing on stdout.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# has FILE PATTERN: a line of FILE matches (grep -E).
has() { grep -qE -- "$2" "$1" && ok || bad "$1: no line like '$2'"; }

"$IBFSIM" explain >"$out/ib.txt" 2>&1 && ok || bad "explain: $(cat "$out/ib.txt")"
f="$out/ib.txt"
has "$f" "^ +0\.000 +200\.000 +0  host1 +doorbell"
has "$f" "^ +[0-9.]+ +120\.000 +0  host1 +send pipeline"
has "$f" "^ +[0-9.]+ +341\.040 +0  host1 -> sw1 +RDMA WRITE Only on the wire: 4138 bytes, 331\.040 ns serialization, 10\.000 ns cable"
has "$f" "^ +[0-9.]+ +100\.640 +0  sw1 +switch: the RDMA WRITE Only's head in, out on port 2 \(cut-through\)"
has "$f" "^ +[0-9.]+ +341\.040 +0  sw1 -> host2 +RDMA WRITE Only on the wire"
has "$f" "^ +[0-9.]+ +120\.000 +0  host2 +receive pipeline \(RDMA WRITE Only\)"
has "$f" "^ +[0-9.]+ +12\.400 +0  host2 -> sw1 +Acknowledge on the wire: 30 bytes"
has "$f" "completion written and polled"
[ "$(awk '$3 ~ /^[0-9]+$/ && $3 != 0' "$f" | wc -l)" -eq 0 ] && ok ||
	bad "a step with CPU"

"$IBFSIM" explain --model roce >"$out/roce.txt" 2>&1 && ok || bad "roce"
has "$out/roce.txt" "host1 -> sw1 +RDMA WRITE Only on the wire: 4194 bytes, 335\.520 ns serialization"

# The total against ibfsim run of the same message.
plat=$(cd "$top_srcdir/platforms" && pwd)
"$IBFSIM" explain --fabric "$plat/star.xml" --profile connectx-4-edr \
	>"$out/star.txt" 2>&1 && ok || bad "star: $(cat "$out/star.txt")"
cat >"$out/star.xml" <<XML
<scenario version="1" name="one">
  <fabric file="$plat/star.xml"/>
  <subnet-manager mode="instant"/>
  <traffic><message src="node1" dst="node4" op="write" size="4096B"/></traffic>
</scenario>
XML
"$IBFSIM" run "$out/star.xml" --profile connectx-4-edr --no-data --quiet \
	--json "$out/star.json" >/dev/null 2>&1 || bad "run star"
want=$(python3 -c "import json,sys
print('%.3f' % json.load(open(sys.argv[1]))['messages']['latency_ns']['max'])" \
	"$out/star.json" 2>/dev/null)
has "$out/star.txt" "completion polled at [0-9.]+ ns: $want ns"

"$IBFSIM" explain --profile ideal >"$out/ideal.txt" 2>&1 || bad "ideal"
[ "$(awk '$4 ~ /^host[12]$/ && $5 != "->" && $2 != "0.000"' \
	"$out/ideal.txt" | wc -l)" -eq 0 ] &&
	[ "$(awk '$4 ~ /^host[12]$/ && $5 != "->"' "$out/ideal.txt" |
	wc -l)" -ge 8 ] && ok || bad "ideal: an HCA step takes time"
"$IBFSIM" explain --op read --size 64 >"$out/read.txt" 2>&1 || bad "read"
has "$out/read.txt" "host2 +READ response set up"
has "$out/read.txt" "host1 +DMA write of the payload \(PCIe\) \(RDMA READ response Only\)"
"$IBFSIM" explain --fabric "$plat/fat-tree-k8-l2.xml" >"$out/ft.txt" 2>&1 ||
	bad "fat tree: $(cat "$out/ft.txt")"
[ "$(grep -c "switch: the RDMA WRITE Only's head in" "$out/ft.txt")" -eq 3 ] &&
	ok || bad "fat tree: not 3 switches"

if command -v gnuplot >/dev/null 2>&1; then
	"$IBFSIM" explain --svg "$out/l.svg" >/dev/null 2>&1 && ok || bad "svg"
	grep -q ">host1<" "$out/l.svg" && grep -q ">sw1<" "$out/l.svg" &&
		grep -q ">doorbell<" "$out/l.svg" && ok || bad "svg content"
fi

# --models ib,roce: the two runs one after the other, as run alone.
"$IBFSIM" explain --models ib,roce >"$out/both.txt" 2>&1 && ok || bad "--models"
{ cat "$out/ib.txt"; echo; cat "$out/roce.txt"; } | cmp -s - "$out/both.txt" &&
	ok || bad "--models ib,roce differs from the two runs"

# docs/teaching.md shows these runs' output: it must still be true.
doc="$top_srcdir/docs/teaching.md"
missing=$(while IFS= read -r line; do
	grep -qxF -- "$line" "$doc" || echo "$line"
done <"$f")
[ -z "$missing" ] && ok || bad "docs/teaching.md lacks: $missing"
tail -3 "$out/read.txt" >"$out/read3"
missing=$(while IFS= read -r line; do
	grep -qxF -- "$line" "$doc" || echo "$line"
done <"$out/read3")
[ -z "$missing" ] && ok || bad "docs/teaching.md lacks: $missing"

# refused ARGS... PATTERN-last: exit 2, nothing on stdout.
refused() {
	pat=$1
	shift
	"$IBFSIM" explain "$@" >"$out/r.out" 2>"$out/r.err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$out/r.out" ] && grep -q -- "$pat" "$out/r.err" &&
		ok || bad "explain $*: exit $rc, $(cat "$out/r.err")"
}
refused "expected ib or roce" --model tcp
refused "tcp: expected ib or roce" --models ib,tcp
refused "draws one model" --models ib,roce --svg "$out/x.svg"
refused "expected send, write or read" --op atomic
refused "takes 1 byte to 1GiB" --size 0
refused "unknown argument '--bogus'" --bogus
cat >"$out/one.xml" <<XML
<fabric version="1" name="one">
  <switch id="sw1" ports="2"/>
  <hca id="h1" ports="1"/>
  <link a="h1:1" b="sw1:1"/>
</fabric>
XML
refused "needs two HCAs" --fabric "$out/one.xml"
refused "cannot open" --fabric "$out/none.xml"
echo "explain: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
