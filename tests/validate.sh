#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `ibfsim validate` from the outside: good fabric files print their counts
# on stdout and exit 0; each class of bad file exits 2 with exactly one line
# "ibfsim: FILE:LINE: what is wrong" on stderr and nothing on stdout. When
# xmllint is installed, it must reach the same verdict as ibfsim with
# platforms/fabric.rng on every file a grammar can judge; the files whose
# fault only the loader can see (duplicate ids, ports in use, ...) are
# checked to pass the schema, so that the split stays as documented.
#
# make check sets IBFSIM, top_srcdir and top_builddir.
set -u

cli_test=validate.sh
. "${top_srcdir:?top_srcdir must be set}/tests/cli_check.sh"
data="$top_srcdir/tests/data/fabric"
plat="$top_srcdir/platforms"

# good FILE SWITCHES HCAS LINKS
good() {
	checks=$((checks + 1))
	"$IBFSIM" validate "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	want="$1: valid fabric: $2 switches, $3 HCAs, $4 links"
	[ "$rc" -eq 0 ] || fail "$1: exit $rc, expected 0 ($(cat "$tmp/err"))"
	[ "$(cat "$tmp/out")" = "$want" ] ||
		fail "$1: printed '$(cat "$tmp/out")', expected '$want'"
	[ -s "$tmp/err" ] && fail "$1: wrote to stderr: $(cat "$tmp/err")"
}

# bad FILE LINE WORDS: exit 2, one line "ibfsim: FILE:LINE: ...WORDS..."
bad() {
	checks=$((checks + 1))
	"$IBFSIM" validate "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$1: exit $rc, expected 2"
	[ -s "$tmp/out" ] && fail "$1: wrote to stdout: $(cat "$tmp/out")"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] ||
		fail "$1: stderr is not one line: $(cat "$tmp/err")"
	prefix="ibfsim: $1:$2: "
	case "$(cat "$tmp/err")" in
	"$prefix"*) ;;
	*) fail "$1: stderr '$(cat "$tmp/err")' does not start '$prefix'" ;;
	esac
	grep -qF -- "$3" "$tmp/err" || fail "$1: stderr does not say '$3'"
}

# schema FILE VERDICT: xmllint with fabric.rng says VERDICT (valid|invalid).
schema() {
	command -v xmllint >/dev/null 2>&1 || return 0
	checks=$((checks + 1))
	if xmllint --noout --nonet --relaxng "$plat/fabric.rng" "$1" \
		>/dev/null 2>&1; then
		got=valid
	else
		got=invalid
	fi
	[ "$got" = "$2" ] || fail "$1: xmllint says $got, ibfsim $2"
}

for f in two-hca:0:2:1 star:1:4:4 skeleton:1:2:2; do
	IFS=: read -r name sw hca links <<EOF
$f
EOF
	good "$plat/$name.xml" "$sw" "$hca" "$links"
	schema "$plat/$name.xml" valid
done
good "$data/good-all.xml" 2 2 4
good "$data/good-minimal.xml" 0 1 0
good "$data/good-generate.xml" 6 9 16
good "$data/good-vls.xml" 2 1 1
for f in good-all good-minimal good-generate good-vls; do
	schema "$data/$f.xml" valid
done

# Faults a grammar (or the XML parser) sees: xmllint must refuse them too.
while IFS='|' read -r file line words; do
	bad "$data/$file" "$line" "$words"
	schema "$data/$file" invalid
done <<'EOF'
bad-malformed.xml|5|Opening and ending tag mismatch
bad-empty.xml|1|Document is empty
bad-entity.xml|5|external entity 'secret'
bad-version.xml|2|fabric version "2" is not supported
bad-element.xml|4|unknown element <router> in <fabric>
bad-attribute.xml|4|unknown attribute 'colour' on <switch>
bad-missing-attribute.xml|4|<switch> needs a 'ports' attribute
bad-text.xml|3|<hca> has no content
bad-defaults-late.xml|4|<defaults> must come first
bad-id-space.xml|3|an id is one word
bad-prefix.xml|4|Invalid attribute prefix for element generate
bad-speed.xml|5|speed="EDX": unknown speed
bad-width.xml|3|width="3x": unknown width
bad-unit-missing.xml|5|cable="2": a length needs a unit
bad-unit-unknown.xml|4|unknown unit for a time
bad-ports-zero.xml|3|ports="0": a node has 1 to 254 ports
bad-mtu.xml|3|mtu="3000": the MTU is 256, 512, 1024, 2048 or 4096
bad-data-vls.xml|3|data-vls="3": a port has 1, 2, 4, 8 or 15 data VLs
bad-guid.xml|3|a GUID is 0x and 1 to 16 hex digits
bad-store-forward.xml|4|store-and-forward="maybe": neither true nor false
bad-profile-empty.xml|3|profile="": a profile needs a name
bad-fabric-text.xml|4|unexpected text in <fabric>
bad-utf8.xml|3|Input is not proper UTF-8, indicate encoding ! Bytes: 0xFF
bad-comment.xml|3|Double hyphen within comment
bad-newline-value.xml|4|latency="1 00ns": unknown unit for a time
EOF

# Faults beyond a grammar: the schema passes them, the loader does not.
while IFS='|' read -r file line words; do
	bad "$data/$file" "$line" "$words"
	schema "$data/$file" valid
done <<'EOF'
bad-duplicate.xml|5|duplicate id 'sw1' (first defined at line 3)
bad-missing-node.xml|6|'node2:1': no node 'node2'
bad-port-zero.xml|5|'sw1:0': port 0 of a switch is its management port
bad-port-range.xml|5|'sw1:9': port out of range ('sw1' has 8 ports)
bad-guid-zero.xml|3|a GUID is 0x and 1 to 16 hex digits, not zero
bad-port-twice.xml|7|port 'sw1:3' is already linked to 'node1:1' (line 6)
bad-unit-overflow.xml|4|the time does not fit in 64 bits
bad-generate.xml|4|spaghetti
bad-buffer-zero.xml|4|buffer="0B": a buffer of 0 bytes holds no credits
bad-buffer-mtu.xml|4|<switch> buffer="8KiB": 2 data VLs x 1 packet of the 4096-byte MTU (4224 bytes in credits) need at least 8448 bytes
bad-buffer-defaults.xml|3|<defaults> buffer="32KiB": 15 data VLs x 1 packet of the 4096-byte MTU (4224 bytes in credits) need at least 63360 bytes
bad-buffer-hca.xml|4|<hca> buffer="2175B": 1 data VL x 1 packet of the 2048-byte MTU (2176 bytes in credits) need at least 2176 bytes
bad-profile.xml|4|unknown HCA profile 'connectx-5' for 'node1'
EOF

# GUIDs pinned by an imported .net file survive the round trip through
# fabric XML: the LFT dumps (which name every port GUID) are identical.
checks=$((checks + 1))
net="$top_srcdir/tests/data/sm/fat-tree-k4-l2.ibnetdiscover"
"$IBFSIM" topo import "$net" -o "$tmp/imp.xml" &&
	"$IBFSIM" route "$net" --dump-lfts "$tmp/a.dump" >/dev/null &&
	"$IBFSIM" route "$tmp/imp.xml" --dump-lfts "$tmp/b.dump" >/dev/null &&
	cmp -s "$tmp/a.dump" "$tmp/b.dump" || fail "GUIDs lost through topo import"
grep -q 'guid="0x0000000000200003" desc="leaf4"' "$tmp/imp.xml" ||
	fail "imported XML has no guid/desc"

# A root that is neither <fabric> nor <scenario>.
bad "$data/bad-root.xml" 2 "neither <fabric> nor <scenario>"
schema "$data/bad-root.xml" invalid

# A missing file: "FILE: ..." without a line.
checks=$((checks + 1))
"$IBFSIM" validate "$data/no-such.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "missing file: exit $rc, expected 2"
[ "$(cat "$tmp/err")" = \
  "ibfsim: $data/no-such.xml: cannot open: No such file or directory" ] ||
	fail "missing file: stderr '$(cat "$tmp/err")'"

# A scenario with no version is refused, whoever validates scenarios.
checks=$((checks + 1))
printf '<?xml version="1.0"?>\n<scenario/>\n' >"$tmp/s.xml"
"$IBFSIM" validate "$tmp/s.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "scenario: exit $rc, expected 2"
case "$(cat "$tmp/err")" in
"ibfsim: $tmp/s.xml"*) ;;
*) fail "scenario: stderr '$(cat "$tmp/err")'" ;;
esac

# Usage: --help on stdout and 0; no file, two files, unknown options: 2.
checks=$((checks + 1))
"$IBFSIM" validate --help >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "--help: exit $rc"
grep -q '^Usage: ibfsim validate FILE.xml' "$tmp/out" || fail "--help: no usage"
for args in "" "a.xml b.xml" "--frobnicate"; do
	checks=$((checks + 1))
	# shellcheck disable=SC2086 # the words of $args are the arguments.
	"$IBFSIM" validate $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "validate $args: exit $rc, expected 2"
	[ -s "$tmp/err" ] || fail "validate $args: nothing on stderr"
	[ -s "$tmp/out" ] && fail "validate $args: wrote to stdout"
done

# $IBFSIM_PLATFORMS decides where the schema is looked up.
checks=$((checks + 1))
IBFSIM_PLATFORMS="$tmp/none" "$IBFSIM" validate "$plat/star.xml" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "IBFSIM_PLATFORMS: exit $rc, expected 2"
grep -qF "ibfsim: $tmp/none/fabric.rng: cannot load the schema" \
	"$tmp/err" || fail "IBFSIM_PLATFORMS: stderr '$(cat "$tmp/err")'"

cli_done
