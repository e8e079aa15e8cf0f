# SPDX-License-Identifier: MIT
#
# Sourced by the scripts that test ibfsim's commands from the outside
# (validate.sh, sm_route_cli.sh, topo_cli.sh), after they set cli_test to
# their name: the variables make check gives them, a temporary directory
# removed at exit ($tmp), and the count of checks made and failed.
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

# cli_done: the summary line; the script's exit status follows it.
cli_done() {
	echo "$cli_test: $checks checks, $fails failed"
	[ "$fails" -eq 0 ]
}
