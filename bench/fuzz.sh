#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzzes ibfsim's parsers with libFuzzer (tests/fuzz/, tests/README.md):
#
#   sh bench/fuzz.sh [SECONDS] [NAME...]
#
# builds every source of src/ and each harness tests/fuzz/fuzz_NAME.c with
# clang -fsanitize=fuzzer,address,undefined in $FUZZ_BUILD (default
# tests/fuzz/build), then runs each harness SECONDS (default 60) on one core
# from its committed corpus (tests/fuzz/corpus/NAME, read only: what it
# finds goes to $FUZZ_BUILD/corpus/NAME) with its dictionary
# (tests/fuzz/NAME.dict). Crashes, leaks, timeouts (10 s an input) and
# out-of-memory inputs are saved in tests/fuzz/crashes/NAME/. Prints one
# line a harness: executions, coverage and features at the end, and exit
# status; and exits 1 if any harness found something. `make fuzz` runs it.
# FUZZ_MERGE=1 then replaces each committed corpus by the smallest set of
# its files and the new ones that covers as much (libFuzzer's -merge=1).
# Needs clang (sh scripts/setup.sh --fuzz) and a configured tree (config.h).
set -e
cd "$(dirname "$0")/.."
SECS=${1:-60}
[ $# -gt 0 ] && shift
ALL="units qos partitions netfile lft flow_cdf fabric_xml sweep scenario"
NAMES=${*:-$ALL}
B=${FUZZ_BUILD:-tests/fuzz/build}
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null ||
	{ echo "fuzz: no $CC (sh scripts/setup.sh --fuzz)" >&2; exit 77; }
[ -f config.h ] ||
	{ echo "fuzz: configure first (sh scripts/setup.sh)" >&2; exit 77; }

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined \
-fno-omit-frame-pointer"
mkdir -p "$B/obj"
# The flags in a response file, so that the quoted paths survive xargs.
{
	echo "-g -O1 -std=gnu11 $SAN -I. -Iinclude -Isrc -Itests/fuzz"
	pkg-config --cflags simgrid libxml-2.0
	echo "-DIBFS_PLATFORMS_DIR=\\\"$PWD/platforms\\\""
	echo "-DIBFS_INSTALLED_PLATFORMS_DIR=\\\"$PWD/platforms\\\""
	echo "-DFUZZ_SRCDIR=\\\"$PWD\\\""
} >"$B/cflags"
CFLAGS="@$B/cflags"
LIBS="$(pkg-config --libs simgrid libxml-2.0) -lm -ldl"

# The library, instrumented for coverage; rebuilt when a source is newer.
find src -name '*.c' ! -path src/cli/main.c | sort | while read -r f; do
	o="$B/obj/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')"
	[ -f "$o" ] && [ "$o" -nt "$f" ] && continue
	echo "$f $o"
done | xargs -r -n2 -P"${FUZZ_JOBS:-2}" sh -c \
	"$CC $CFLAGS -fsanitize=fuzzer-no-link -c \"\$0\" -o \"\$1\""
rm -f "$B/libibfs_fuzz.a"
ar rcs "$B/libibfs_fuzz.a" "$B"/obj/*.o

found=0
for n in $NAMES; do
	$CC $CFLAGS -fsanitize=fuzzer -o "$B/fuzz_$n" "tests/fuzz/fuzz_$n.c" \
		tests/fuzz/fuzz_common.c "$B/libibfs_fuzz.a" $LIBS
	mkdir -p "$B/corpus/$n" "tests/fuzz/crashes/$n"
	dict=""
	[ -f "tests/fuzz/$n.dict" ] && dict="-dict=tests/fuzz/$n.dict"
	set +e
	"$B/fuzz_$n" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -print_final_stats=1 $dict \
		-artifact_prefix="tests/fuzz/crashes/$n/" \
		"$B/corpus/$n" "tests/fuzz/corpus/$n" >"$B/$n.log" 2>&1
	rc=$?
	set -e
	[ $rc -eq 0 ] || found=1
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$n.log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$B/$n.log" | tail -1 | \
		sed 's/.*\(cov: [0-9]*\).*\(ft: [0-9]*\).*/\1 \2/')
	echo "fuzz $n: ${SECS} s, ${execs:-?} execs, $last, exit $rc"
	if [ "${FUZZ_MERGE:-0}" = 1 ]; then
		rm -rf "$B/merged"
		mkdir -p "$B/merged"
		"$B/fuzz_$n" -merge=1 -timeout=10 -rss_limit_mb=2048 \
			-max_len=8192 "$B/merged" "tests/fuzz/corpus/$n" \
			"$B/corpus/$n" >"$B/$n.merge.log" 2>&1 &&
			rm -rf "tests/fuzz/corpus/$n" &&
			mv "$B/merged" "tests/fuzz/corpus/$n"
		echo "fuzz $n: corpus of $(ls "tests/fuzz/corpus/$n" | wc -l) files"
	fi
done
exit $found
