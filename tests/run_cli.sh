#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `ibfsim run`'s command line: each usage error exits 2 with one line on
# stderr naming it and nothing on stdout; an output that cannot be written
# (--json, --csv, --pcap, --trace) is refused the same way before anything
# runs, and no output file appears; --help prints the usage and exits 0.
# (Bad scenario files are run_scenarios.sh's.)
#
# make check sets IBFSIM and top_srcdir.
set -u

cli_test=run_cli
. "${top_srcdir:?top_srcdir must be set}/tests/cli_check.sh"
sc="$top_srcdir/examples/rdma_write.xml"

usage run "run: which scenario?"
usage run "run: one scenario at a time ('$sc')" "$sc" "$sc"
usage run "run: unknown option '--frob'" --frob "$sc"
usage run "--seed needs a value" "$sc" --seed
usage run "--seed takes a whole number, not 'x'" --seed x "$sc"
usage run "--until 5: a time needs a unit" --until 5 "$sc"
usage run "--model foo: not one of ib, roce, iwarp, tcp" --model foo "$sc"
usage run "$tmp/none.xml: cannot open" "$tmp/none.xml"
usage run "--pcap-ports and --pcap-snaplen go with --pcap FILE" \
	--pcap-ports sw1 "$sc"
usage run "--pcap-snaplen takes 8 to 65535 bytes (8: the LRH), not '4'" \
	--pcap "$tmp/c.pcap" --pcap-snaplen 4 "$sc"
usage run "--pcap-ports: no node 'nope' in the fabric" \
	--pcap "$tmp/c.pcap" --pcap-ports sw1,nope "$sc"
usage run "--pcap-ports: 'sw1:3': 'sw1' has ports 1 to 2" \
	--pcap "$tmp/c.pcap" --pcap-ports sw1:3 "$sc"
usage run "--pcap-ports: ':1' is not NODE or NODE:PORT" \
	--pcap "$tmp/c.pcap" --pcap-ports :1 "$sc"
[ -e "$tmp/c.pcap" ] && fail "a refused --pcap-ports left $tmp/c.pcap"
usage run "--trace-ports goes with --trace FILE" --trace-ports sw1 "$sc"
usage run "--trace-ports: no node 'nope' in the fabric" \
	--trace "$tmp/t.json" --trace-ports nope "$sc"
[ -e "$tmp/t.json" ] && fail "a refused --trace-ports left $tmp/t.json"

# Outputs: a missing directory, a directory given for a file, a file given
# for the CSV directory. Nothing is written anywhere.
usage run "$tmp/no/r.json: cannot write: No such file or directory" \
	--json "$tmp/no/r.json" "$sc"
usage run "$tmp: cannot write: Is a directory" --json "$tmp" "$sc"
: >"$tmp/file"
usage run "$tmp/file: cannot write: Not a directory" --csv "$tmp/file" "$sc"
usage run "$tmp/no/csv: cannot write: No such file or directory" \
	--csv "$tmp/no/csv" "$sc"
usage run "$tmp/no/c.pcap: cannot write: No such file or directory" \
	--pcap "$tmp/no/c.pcap" "$sc"
usage run "$tmp/no/t.json: cannot write: No such file or directory" \
	--trace "$tmp/no/t.json" "$sc"
usage run "$tmp/no/t.json: cannot write" --json "$tmp/r.json" \
	--trace "$tmp/no/t.json" "$sc"
checks=$((checks + 1))
[ -e "$tmp/no" ] || [ -e "$tmp/r.json" ] &&
	fail "a refused run left $(ls "$tmp")"

# The same outputs where they can go: all written, exit 0.
checks=$((checks + 1))
mkdir "$tmp/ok"
if "$IBFSIM" run "$sc" --quiet --json "$tmp/ok/r.json" --csv "$tmp/ok/csv" \
	--pcap "$tmp/ok/c.pcap" --trace "$tmp/ok/t.json" \
	>"$tmp/out" 2>"$tmp/err"; then
	for f in r.json csv/messages.csv csv/flows.csv csv/links.csv \
		csv/ports.csv c.pcap t.json; do
		[ -s "$tmp/ok/$f" ] || fail "run with every output: no $f"
	done
else
	fail "run with every output: $(cat "$tmp/err")"
fi

# --profile NAME: every HCA runs that profile, as if the fabric named it
# (skeleton.xml's HCAs are ideal): the same results, and the summary and
# JSON say which.
usage run "--profile: no profile 'cx4' (ideal, connectx-4-edr, connectx-6-hdr, connectx-7-ndr)" \
	--profile cx4 "$sc"
usage run "--profile needs a value" "$sc" --profile
checks=$((checks + 1))
mkdir "$tmp/prof"
sed 's/profile="ideal"/profile="connectx-4-edr"/' \
	"$top_srcdir/platforms/skeleton.xml" >"$tmp/prof/cx4.xml"
sed 's|"../platforms/skeleton.xml"|"cx4.xml"|' "$sc" >"$tmp/prof/sc.xml"
"$IBFSIM" run "$tmp/prof/sc.xml" --quiet --json "$tmp/prof/file.json" \
	>/dev/null || fail "the connectx-4-edr fabric: exit $?"
"$IBFSIM" run "$sc" --quiet --profile connectx-4-edr \
	--json "$tmp/prof/opt.json" >"$tmp/prof/out" ||
	fail "--profile connectx-4-edr: exit $?"
head -1 "$tmp/prof/out" | grep -q ', HCA profile connectx-4-edr$' ||
	fail "--profile: summary '$(head -1 "$tmp/prof/out")'"
grep -q '"hca_profile": "connectx-4-edr"' "$tmp/prof/opt.json" ||
	fail "--profile: no hca_profile in the JSON"
grep -v '"wall_s"\|"hca_profile"' "$tmp/prof/opt.json" >"$tmp/prof/a"
grep -v '"wall_s"' "$tmp/prof/file.json" >"$tmp/prof/b"
cmp -s "$tmp/prof/a" "$tmp/prof/b" ||
	fail "--profile connectx-4-edr differs from a fabric naming it"
grep -q "\"end_ns\": 5521.600," "$tmp/prof/a" &&
	fail "--profile: the ideal profile's time"

checks=$((checks + 1))
"$IBFSIM" run --help >"$tmp/out" 2>"$tmp/err" || fail "run --help: exit $?"
grep -q '^Usage: ibfsim run SCENARIO.xml' "$tmp/out" ||
	fail "run --help: $(cat "$tmp/out")"

cli_done
