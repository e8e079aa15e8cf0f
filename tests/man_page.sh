#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The man page, docs/ibfsim.1: a roff linter (mandoc -T lint, else
# groff -man -ww -z) prints nothing about it, and its rendered text names
# every command that `ibfsim --help` lists (`ibfsim run`, `ibfsim topo
# gen`, ...) and every option that `ibfsim --help` and each command's
# --help mention. Skipped (77) without mandoc or groff (scripts/setup.sh
# --tests installs mandoc).
#
# make check sets top_srcdir and IBFSIM.
set -u
cli_test=man_page
. "${top_srcdir:?top_srcdir must be set}/tests/cli_check.sh"
man="$top_srcdir/docs/ibfsim.1"

# Wide lines, so that no option is broken across two.
if command -v mandoc >/dev/null 2>&1; then
	mandoc -T lint "$man" >"$tmp/lint" 2>&1
	mandoc -T ascii -O width=1000 "$man" >"$tmp/raw" 2>/dev/null
elif command -v groff >/dev/null 2>&1; then
	groff -man -ww -z "$man" >"$tmp/lint" 2>&1
	groff -man -Tascii -P-bcu -rLL=1000n -rHY=0 "$man" >"$tmp/raw" \
		2>/dev/null
else
	echo "man_page: SKIP: neither mandoc nor groff is installed"
	exit 77
fi
# Plain text: mandoc's bold and underline are overstruck characters.
bs=$(printf '\b')
sed "s/.$bs//g" "$tmp/raw" >"$tmp/text"

checks=$((checks + 1))
[ -s "$tmp/lint" ] && fail "the linter says: $(cat "$tmp/lint")"
checks=$((checks + 1))
grep -q 'EXIT STATUS' "$tmp/text" && grep -q 'SEE ALSO' "$tmp/text" ||
	fail "no EXIT STATUS or SEE ALSO section"

# has TEXT: the rendered page holds TEXT, not as part of a longer word.
has() {
	grep -qE -- "(^|[^a-zA-Z0-9_-])$1([^a-zA-Z0-9_-]|$)" "$tmp/text"
}

# The commands: the first word of each line under "Commands:", and topo's
# subcommands (gen|import|export|info) with it.
"$IBFSIM" --help >"$tmp/help" || fail "ibfsim --help exits $?"
sed -n '/^Commands:/,/^$/p' "$tmp/help" | sed -n 's/^  \([a-z]\)/\1/p' |
	awk '{ print $1 }' >"$tmp/cmds"
[ -s "$tmp/cmds" ] || fail "no command found in ibfsim --help"
sed -n '/^Commands:/,/^$/p' "$tmp/help" |
	awk '$1 == "topo" { n = split($2, s, "|");
		for (i = 1; i <= n; i++) print "topo " s[i] }' >>"$tmp/cmds"
while read -r cmd; do
	checks=$((checks + 1))
	has "ibfsim $cmd" || fail "the man page has no 'ibfsim $cmd'"
done <"$tmp/cmds"

# The options every --help mentions: --long, and single letters -x.
for cmd in "" $(awk '{ print $1 }' "$tmp/cmds" | sort -u); do
	# shellcheck disable=SC2086
	"$IBFSIM" $cmd --help >"$tmp/h" 2>&1 ||
		fail "ibfsim $cmd --help exits $?"
	grep -oE -- '(^|[][ ,(|])--?[a-zA-Z][a-zA-Z0-9_-]*' "$tmp/h" |
		sed 's/^[^-]*//' | grep -vE -- '^-[a-zA-Z][a-zA-Z0-9_]' |
		sort -u >"$tmp/opts"
	while read -r opt; do
		checks=$((checks + 1))
		has "$opt" ||
			fail "the man page has no '$opt' (ibfsim $cmd --help)"
	done <"$tmp/opts"
done

cli_done
