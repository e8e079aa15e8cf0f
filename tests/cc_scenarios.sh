#!/bin/sh
# SPDX-License-Identifier: MIT
# Congestion control in scenario files (<subnet-manager> cc-* attributes,
# OpenSM's cc_* options): every bad value is refused as "FILE:LINE: what
# is wrong" with exit 2, by run and by validate alike, before anything
# runs; good settings run in both SM modes, with the same marks.
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# A scenario whose <subnet-manager> (line 4) carries $1.
scen() {
	cat <<XML
<?xml version="1.0"?>
<scenario version="1" name="cc">
  <fabric file="$top_srcdir/platforms/star.xml"/>
  <subnet-manager $1/>
  <traffic>
    <message op="write" src="node1" dst="node2" size="64KiB"/>
  </traffic>
</scenario>
XML
}

on='congestion-control="true"'
i=0
while IFS='|' read -r attrs phrase; do
	[ -n "$attrs" ] || continue
	i=$((i + 1))
	f="$out/bad$i.xml"
	scen "$attrs" >"$f"
	for cmd in run validate; do
		"$IBFSIM" $cmd "$f" >"$out/stdout" 2>"$out/stderr"
		rc=$?
		msg=$(cat "$out/stderr")
		[ "$rc" -eq 2 ] || { bad "$cmd $attrs: exit $rc, want 2 ($msg)"; continue; }
		case "$msg" in
		"ibfsim: $f:4: "*"$phrase"*) ok ;;
		*) bad "$cmd $attrs: got '$msg', want line 4 and '$phrase'" ;;
		esac
		[ -s "$out/stdout" ] && [ $cmd = run ] && bad "$attrs: printed results"
	done
done <<LIST
congestion-control="yes"|congestion-control="yes": expected TRUE or FALSE
cc-sw-cong-setting-threshold="0xf"|cc-sw-cong-setting-threshold has no effect without congestion-control="true"
$on cc-sw-cong-setting-threshold="16"|cc-sw-cong-setting-threshold="16": 16 is above 15
$on cc-sw-cong-setting-threshold="x"|expected a number at "x"
$on cc-sw-cong-setting-threshold="3 4"|unexpected "4"
$on cc-sw-cong-setting-threshold=""|expected a number
$on cc-sw-cong-setting-control-map="0x20"|0x20 is above 31
$on cc-sw-cong-setting-packet-size="256"|256 is above 255
$on cc-sw-cong-setting-marking-rate="65536"|65536 is above 65535
$on cc-sw-cong-setting-marking-rate="-1"|expected a number at "-1"
$on cc-sw-cong-setting-credit-starvation-threshold="99"|99 is above 15
$on cc-sw-cong-setting-credit-starvation-return-delay="4:0"|4 is above 3
$on cc-sw-cong-setting-credit-starvation-return-delay="1"|expected SHIFT:MULTIPLIER
$on cc-sw-cong-setting-victim-mask="0xg"|'g' is not a hexadecimal digit
$on cc-sw-cong-setting-victim-mask="0x8000000000000000000000000000000000000000000000000000000000000000"|bit 255 is reserved
$on cc-sw-cong-setting-credit-mask="0x10000000000000000000000000000000000000000000000000000000000000000"|a mask is 1 to 64 hexadecimal digits
$on cc-ca-cong-setting-port-control="0x10000"|0x10000 is above 65535
$on cc-ca-cong-setting-control-map="70000"|70000 is above 65535
$on cc-ca-cong-setting-ccti-timer="16 5"|pair 0: 16 is above 15
$on cc-ca-cong-setting-ccti-timer="0 65536"|pair 0: 65536 is above 65535
$on cc-ca-cong-setting-ccti-increase="0 1,1 256"|pair 1: 256 is above 255
$on cc-ca-cong-setting-ccti-min="0"|pair 0: expected "SL VALUE"
$on cc-ca-cong-setting-trigger-threshold="0 1;"|unexpected ";"
$on cc-cct="0:1,4:1"|cc-cct="0:1,4:1": entry 1: 4 is above 3
$on cc-cct="0:16384"|entry 0: 16384 is above 16383
$on cc-cct="0:1,"|entry 1: expected a number
$on cc-cct="0-1"|entry 0: expected SHIFT:MULTIPLIER
$on cc-ca-cong-setting-control-map="0x1" cc-ca-cong-setting-ccti-min="0 3" cc-cct="0:0,0:1"|SL 0: ccti_min 3 is beyond the last index of cc_cct (CCTI_Limit 1)
$on cc-bogus="1"|<subnet-manager> has no attribute 'cc-bogus'
LIST

# A table of 128 entries is taken, 129 refused.
t=$(awk 'BEGIN { for (i = 0; i < 128; i++) printf "%s3:%d", i ? "," : "", i }')
scen "$on cc-cct=\"$t\"" >"$out/t128.xml"
"$IBFSIM" validate "$out/t128.xml" >/dev/null 2>&1 && ok || bad "128 entries refused"
scen "$on cc-cct=\"$t,0:0\"" >"$out/t129.xml"
"$IBFSIM" validate "$out/t129.xml" >/dev/null 2>"$out/stderr"
[ $? -eq 2 ] && grep -q "more than 128 entries" "$out/stderr" && ok ||
	bad "129 entries: $(cat "$out/stderr")"

# Good settings, OpenSM's defaults spelled out: CC on, nothing marks (the
# switches' threshold is 0), the run as without CC but for the CC line.
scen "$on cc-sw-cong-setting-control-map=\"0x0\" cc-sw-cong-setting-threshold=\"0x00\" \
cc-sw-cong-setting-victim-mask=\"0x0000000000000000000000000000000000000000000000000000000000000000\" \
cc-sw-cong-setting-credit-starvation-return-delay=\"0:0\" cc-ca-cong-setting-ccti-timer=\"0 0\" \
cc-ca-cong-setting-ccti-increase=\"0 0\" cc-ca-cong-setting-trigger-threshold=\"0 0\" \
cc-ca-cong-setting-ccti-min=\"0 0\" congestion-control=\"TRUE\"" | sed 's/congestion-control="true" //' >"$out/def.xml"
scen "" >"$out/none.xml"
"$IBFSIM" run "$out/def.xml" --quiet --json "$out/def.json" >"$out/def.txt" 2>&1 && ok || bad "defaults: $(cat "$out/def.txt")"
"$IBFSIM" run "$out/none.xml" --quiet --json "$out/none.json" >"$out/none.txt" 2>&1 && ok || bad "no CC run"
grep -q '^congestion control: 0 FECN marks; 0 BECNs in ACKs and 0 CNPs sent, 0 BECNs received$' "$out/def.txt" &&
	ok || bad "defaults: $(grep congestion "$out/def.txt")"
grep -q 'latency' "$out/none.txt" && [ "$(grep latency "$out/def.txt")" = "$(grep latency "$out/none.txt")" ] &&
	ok || bad "defaults change the timing"
grep -q congestion "$out/none.txt" && bad "a CC line without CC" || ok

# incast_cc in both SM modes: the settings hold from time 0 either way
# (the CCTI timers tick from then, so the runs differ in phase), and both
# mark and throttle.
ex="$top_srcdir/examples/incast_cc.xml"
sed 's/<subnet-manager /<subnet-manager mode="instant" /' "$ex" >"$out/instant.xml"
for m in inband instant; do
	f=$ex
	[ $m = instant ] && f=$out/instant.xml
	"$IBFSIM" run "$f" --quiet --json "$out/$m.json" >/dev/null && ok || bad "incast_cc $m"
	grep -q '"congestion_control": {"fecn_marks": [1-9][0-9]*, "becn_tx": [1-9][0-9]*, "cnp_tx": 0, "becn_rx": [1-9]' \
		"$out/$m.json" && ok || bad "incast_cc $m: $(grep -o '"congestion_control": {[^[]*' "$out/$m.json")"
done

echo "cc_scenarios: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
