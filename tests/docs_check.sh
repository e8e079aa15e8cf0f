#!/bin/sh
# SPDX-License-Identifier: MIT
# The project's files speak of the project alone and cite only what it
# holds: no diary of its making (who worked on what, in which stint of
# work, on which checkout) in the README, docs/, bench/, the sources, the
# tests, the platforms or the examples; every document of the tree a file
# cites (a path ending in .md under one of the tree's folders or at its
# top, or the man page) exists; and no file cites design notes kept
# outside the tree. Each failure prints FILE:LINE and what is wrong.
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2

# The files to read: text of the tree, not build products.
files=$(find README.md docs bench src include tests platforms examples \
	scripts -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' \
	-o -name '*.mk' -o -name '*.md' -o -name '*.xml' -o -name '*.rng' \
	-o -name '*.1' -o -name '*.py' -o -name '*.conf' -o -name '*.in' \) \
	2>/dev/null | grep -v '/\.' | sort)
[ -n "$files" ] || { echo "docs_check: no files under $top"; exit 2; }
fail=0

# Diary words, spelled in two pieces so that this file passes its own check.
s=ses; s=${s}sion
d=devel; d=${d}oper
w=work; w=${w}tree
if grep -niwE "${s}s?|${d}s?|${w}s?" $files; then
	echo "docs_check: the lines above keep a development diary" \
	     "(${s}, ${d}, ${w}): say what the project does, not who did" \
	     "it when; history belongs in git"
	fail=1
fi

# Notes that are not in the repository.
dn=DESI; dn=${dn}GN
sp=SP; sp=${sp}EC
if grep -nwE "${dn}(\.md)?|${sp}(\.md)?" $files; then
	echo "docs_check: the lines above cite ${dn}/${sp}, which are not in" \
	     "this repository: cite docs/ instead"
	fail=1
fi

# Every cited document exists: relative to the citing file's folder or to
# the top of the tree.
for f in $files; do
	dir=$(dirname "$f")
	# roff writes a hyphen as \- ; a $variable is not a path.
	grep -noE '[$A-Za-z0-9_][A-Za-z0-9_./\\-]*\.md\b|docs/ibfsim\.1' "$f" |
	while IFS=: read -r line path; do
		path=$(printf '%s' "$path" | tr -d '\\')
		case $path in *'$'*) continue ;; esac
		path=${path#./}
		# Another project's file (nccl-tests' doc/PERFORMANCE.md) is a
		# source, not a document of this tree.
		case $path in
		*/*) [ -d "${path%%/*}" ] || [ -d "$dir/${path%%/*}" ] ||
			continue ;;
		esac
		[ -e "$dir/$path" ] || [ -e "$path" ] || {
			echo "$f:$line: cites $path, which is not in the tree"
			echo x
		}
	done
done >"${TMPDIR:-/tmp}/docs_check.$$"
if grep -q . "${TMPDIR:-/tmp}/docs_check.$$"; then
	grep -v '^x$' "${TMPDIR:-/tmp}/docs_check.$$"
	fail=1
fi
rm -f "${TMPDIR:-/tmp}/docs_check.$$"

n=$(echo "$files" | wc -l)
[ "$fail" -eq 0 ] &&
	echo "docs_check: $n files, no diary, every cited document present"
exit "$fail"
