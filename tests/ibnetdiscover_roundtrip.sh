#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `topo export --format ibnetdiscover` into the real ibsim, the real
# ibnetdiscover over it, and `topo import` of what it printed: the same
# nodes, GUIDs, links, widths and speeds come back. ibsim 0.10 (Debian 12)
# enables speeds up to HDR: FDR10 comes back as QDR, NDR and XDR as HDR
# (src/fabric/topo_export.c). Needs ibsim, libumad2sim.so (ibsim-utils)
# and ibnetdiscover (infiniband-diags); without them it says so and exits
# 77 (SKIP).
set -u
: "${IBFSIM:?IBFSIM must name the ibfsim binary}"
: "${top_srcdir:?top_srcdir must be set}"

. "$top_srcdir/tests/ibsim_lib.sh"
ibsim_require "the ibnetdiscover round trip" \
	"ibsim-utils infiniband-diags" ibnetdiscover
ibsim_tmp ibfs-nd
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

fab=$top_srcdir/tests/data/fabric/good-speeds.xml
"$IBFSIM" topo export "$fab" --format ibnetdiscover -o "$tmp/fab.net" ||
	{ echo "FAIL: export"; exit 1; }
sock="ibfs-nd-$$"
ibsim_start "$tmp/fab.net" "$tmp/ibsim.log" "$sock" || exit 1
IBSIM_SOCKNAME=$sock LD_PRELOAD=$umad2sim timeout 60 ibnetdiscover \
	>"$tmp/fab.ibnd" 2>"$tmp/ibnd.err" ||
	{ echo "FAIL: ibnetdiscover exited $?"; cat "$tmp/ibnd.err"; exit 1; }
ibsim_stop

"$IBFSIM" topo import "$tmp/fab.ibnd" -o "$tmp/back.xml" ||
	{ echo "FAIL: import of ibnetdiscover's output"; exit 1; }

# ibnetdiscover names nodes by GUID ("H-0000000000100000") and keeps our
# names as descriptions; map each link back to our HCA by its GUID, as
# `topo export` gave them (h1 0x100000, h2 0x100002, ...).
expect() {
	hca=$1 want=$2
	n=${hca#h}
	guid=$(printf 'H-%016x' $((0x100000 + 2 * (n - 1))))
	line=$(grep "b=\"$guid:1\"" "$tmp/back.xml")
	got=$(echo "$line" | sed -n 's/.*speed="\([A-Z0-9]*\)".*/\1/p')
	[ -n "$got" ] || got=EDR # the file's default
	w=$(echo "$line" | sed -n 's/.*width="\([0-9]*x\)".*/\1/p')
	[ -n "$w" ] || w=4x
	[ "$got $w" = "$want" ] || fail "$hca: ibnetdiscover reports $got $w, want $want ($line)"
}
expect h1 "SDR 4x"
expect h2 "DDR 4x"
expect h3 "QDR 4x"
expect h4 "QDR 4x"
expect h5 "FDR 4x"
expect h6 "EDR 1x"
expect h7 "HDR 12x"
expect h8 "HDR 4x"
expect h9 "HDR 2x"
[ "$(grep -c '<link' "$tmp/back.xml")" -eq 9 ] || fail "links: $(grep -c '<link' "$tmp/back.xml"), want 9"
grep -q 'guid="0x0000000000200000" desc="sw"' "$tmp/back.xml" ||
	fail "the switch's GUID and description did not come back"
[ $fails -eq 0 ] && echo "ibnetdiscover round trip: 9 links, speeds and widths as exported"
exit $((fails != 0))
