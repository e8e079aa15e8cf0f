# SPDX-License-Identifier: MIT
#
# What the <collective> tests share (sourced by collectives.sh and
# collectives_algos.sh): a scratch directory, pass/fail counts, a
# scenario file around some traffic, and a list of mistakes each refused
# at its line by run and validate.

out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# scenario NAME TRAFFIC [FABRIC]: a scenario file around TRAFFIC, its
# fabric platforms/star.xml by default; the traffic is on line 6.
scenario() {
	cat >"$out/$1.xml" <<EOF2
<?xml version="1.0"?>
<scenario version="1" name="$1">
  <fabric file="${3:-$top_srcdir/platforms/star.xml}"/>
  <subnet-manager mode="instant"/>
  <traffic>
    $2
  </traffic>
</scenario>
EOF2
}

# refused: each line of stdin, "TRAFFIC|PHRASE", must make run and
# validate exit 2 with "FILE:6: ...PHRASE...".
refused() {
	while IFS='|' read -r traffic phrase; do
		[ -n "$traffic" ] || continue
		scenario e "$traffic"
		for cmd in run validate; do
			msg=$("$IBFSIM" $cmd "$out/e.xml" 2>&1 >/dev/null)
			rc=$?
			case "$rc:$msg" in
			"2:ibfsim: $out/e.xml:6: "*"$phrase"*) ok ;;
			*) bad "$cmd '$traffic': exit $rc, '$msg'" ;;
			esac
		done
	done
}
