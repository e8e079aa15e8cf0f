# SPDX-License-Identifier: MIT
#
# Sourced by the scripts that test ibfsim's commands from the outside
# (validate.sh, sm_route_cli.sh, topo_cli.sh, run_cli.sh, docs_formats.sh,
# man_page.sh), after they set
# cli_test to their name: the variables make check gives them, a temporary
# directory removed at exit ($tmp), and the count of checks made and
# failed.
: "${IBFSIM:?IBFSIM must name the ibfsim program}"
: "${top_srcdir:?top_srcdir must be set}"
: "${cli_test:?cli_test must name the script}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ibfsim-$cli_test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# usage COMMAND WORDS ARGS...: `ibfsim COMMAND ARGS` is refused as bad
# usage: exit 2, one line on stderr that says WORDS, nothing on stdout.
usage() {
	cmd=$1
	words=$2
	shift 2
	checks=$((checks + 1))
	"$IBFSIM" "$cmd" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$cmd $*: exit $rc, expected 2"
	[ -s "$tmp/out" ] && fail "$cmd $*: wrote to stdout: $(cat "$tmp/out")"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] ||
		fail "$cmd $*: stderr is not one line: $(cat "$tmp/err")"
	grep -qF -- "$words" "$tmp/err" ||
		fail "$cmd $*: stderr '$(cat "$tmp/err")' does not say '$words'"
}

# cli_done: the summary line; the script's exit status follows it.
cli_done() {
	echo "$cli_test: $checks checks, $fails failed"
	[ "$fails" -eq 0 ]
}
