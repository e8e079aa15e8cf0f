#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The format pages against the schemas: every element and attribute that
# platforms/fabric.rng defines appears in docs/fabric-format.md, every one
# of platforms/scenario.rng in docs/scenario-format.md and of
# platforms/sweep.rng in docs/sweep-format.md, each as a code
# span (`name`, or `<name ...>` for an element). The check is run once on a
# copy of a page with one name taken out, to show that it notices. Then
# every example in the pages that is a whole file (an ```xml block whose
# first element is <fabric> or <scenario>) must pass `ibfsim validate`,
# placed in examples/ beside platforms/ as the project's own scenarios are.
#
# make check sets top_srcdir and IBFSIM.
set -u
cli_test=docs_formats
. "${top_srcdir:?top_srcdir must be set}/tests/cli_check.sh"

# names RNG KIND: the names of the elements (KIND element) or attributes
# (KIND attribute) the schema defines, one a line, each once.
names() {
	grep -o "<$2 name=\"[^\"]*\"" "$1" | sed 's/.*name="//; s/"$//' |
		sort -u
}

# missing RNG DOC: the schema's names that DOC does not show as a code
# span, one a line as "element NAME" or "attribute NAME".
missing() {
	for n in $(names "$1" element); do
		grep -qE "\`$n\`|\`<$n[ />]" "$2" || echo "element $n"
	done
	for n in $(names "$1" attribute); do
		grep -qF "\`$n\`" "$2" || echo "attribute $n"
	done
}

for pair in fabric:fabric-format scenario:scenario-format sweep:sweep-format; do
	rng="$top_srcdir/platforms/${pair%%:*}.rng"
	doc="$top_srcdir/docs/${pair#*:}.md"
	checks=$((checks + 1))
	[ -n "$(names "$rng" element)" ] ||
		fail "$rng: no <element name=...> found"
	missing "$rng" "$doc" >"$tmp/missing"
	while read -r what; do
		fail "$doc does not document the $what of $rng"
	done <"$tmp/missing"
done

# The check itself: a page without one attribute's code spans fails it.
checks=$((checks + 1))
rng="$top_srcdir/platforms/fabric.rng"
gone=$(names "$rng" attribute | grep -vx 'version\|name\|id' | head -n 1)
sed "s/\`$gone\`//g" "$top_srcdir/docs/fabric-format.md" >"$tmp/cut.md"
missing "$rng" "$tmp/cut.md" | grep -qx "attribute $gone" ||
	fail "the check does not notice a page without \`$gone\`"

# The whole examples validate.
mkdir "$tmp/examples" || exit 99
ln -s "$top_srcdir/platforms" "$tmp/platforms" || exit 99
for page in fabric-format scenario-format results; do
	awk -v out="$tmp/examples/$page" '
		/^```xml/ { n++; file = out "-" n ".xml"; inside = 1; next }
		/^```/ { inside = 0; next }
		inside { print > file }
	' "$top_srcdir/docs/$page.md"
done
for f in "$tmp"/examples/*.xml; do
	[ -e "$f" ] || continue
	grep -v '^<?xml' "$f" | grep -m 1 . | grep -q '^<\(fabric\|scenario\)' ||
		continue
	checks=$((checks + 1))
	"$IBFSIM" validate "$f" >"$tmp/out" 2>&1 ||
		fail "example $(basename "$f") of docs/: $(cat "$tmp/out")"
done

cli_done
