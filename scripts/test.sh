#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up (scripts/setup.sh --tests) and runs the whole test suite. Prints
# the log of every failed test, then one closing line "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
sh scripts/setup.sh --tests || exit 2
make -s -j"$(nproc)" check >/dev/null 2>&1
status=$?
[ -f test-suite.log ] || { make check; exit 1; }
pass=$(sed -n 's/^# PASS: *//p' test-suite.log)
fail=$(sed -n 's/^# FAIL: *//p' test-suite.log)
xfail=$(sed -n 's/^# XFAIL: *//p' test-suite.log)
xpass=$(sed -n 's/^# XPASS: *//p' test-suite.log)
errors=$(sed -n 's/^# ERROR: *//p' test-suite.log)
skip=$(sed -n 's/^# SKIP: *//p' test-suite.log)
failed=$(( ${fail:-0} + ${xpass:-0} + ${errors:-0} ))
if [ "$failed" -ne 0 ] || [ "$status" -ne 0 ]; then
	cat test-suite.log
fi
# Per-program figures: how many Check cases each program ran.
for f in $(find tests examples -name '*.log' ! -name test-suite.log 2>/dev/null | sort); do
	line=$(grep -E '^[0-9]+%: Checks: ' "$f" | tail -n 1)
	[ -n "$line" ] && echo "$(basename "$f" .log): $line"
done
echo "tests: ${pass:-0} passed, ${failed} failed, ${skip:-0} skipped"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
