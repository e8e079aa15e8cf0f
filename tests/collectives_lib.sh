# SPDX-License-Identifier: MIT
#
# What the <collective> tests share (sourced by collectives.sh,
# collectives_algos.sh and collectives_trees.sh): a scratch directory,
# pass/fail counts, a scenario file around some traffic, stars of 4 and 8
# HCAs, a run with its CSV, its messages' edges, and a list of mistakes
# each refused at its line by run and validate.

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

# stars: platforms/star.xml with node5..node8 on its free ports 5 to 8
# ($out/star8.xml), and both with node2's cable at 200 m (1 us), so that
# arrivals differ: $out/star-200.xml, $out/star8-200.xml.
stars() {
	star="$top_srcdir/platforms/star.xml"
	awk '/<link a="node1:1"/ { for (i = 5; i <= 8; i++)
		printf "  <hca id=\"node%d\" ports=\"1\"/>\n", i }
		{ print }
		/<link a="node4:1"/ { for (i = 5; i <= 8; i++)
		printf "  <link a=\"node%d:1\" b=\"sw1:%d\"/>\n", i, i }' \
		"$star" >"$out/star8.xml"
	for f in star star8; do
		src=$star
		[ $f = star8 ] && src=$out/star8.xml
		sed 's|<link a="node2:1" b="sw1:2"/>|<link a="node2:1" b="sw1:2" cable="200m"/>|' \
			"$src" >"$out/$f-200.xml"
	done
}

# run NAME TRAFFIC [FABRIC]: runs it with its CSV in $out/NAME.
run() {
	scenario "$@"
	"$IBFSIM" run "$out/$1.xml" --quiet --csv "$out/$1" --json \
		"$out/$1.json" >"$out/$1.out" || bad "$1: exit $?"
}

# edges NAME: "src>dst:bytes ..." of its messages in row order, node
# numbers only.
edges() {
	awk -F, 'NR > 1 { sub("node", "", $1); sub("node", "", $2);
		printf "%s>%s:%s ", $1, $2, $4 }' "$out/$1/messages.csv"
}
