# SPDX-License-Identifier: MIT
# Shared by the scripts that run scenarios and check their JSON: sourced
# after $IBFSIM and $out (a scratch directory) are set. ok and bad count
# checks; run NAME FILE [ARGS...] runs FILE into $out/NAME.json and
# $out/NAME.txt, exit 0 expected; check NAME EXPR holds when the Python
# expression EXPR over that JSON (j) is true.
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
run() {
	name=$1 file=$2
	shift 2
	if "$IBFSIM" run "$file" --quiet --json "$out/$name.json" "$@" \
		>"$out/$name.txt" 2>&1; then
		ok
	else
		bad "$name: exit $?: $(cat "$out/$name.txt")"
	fi
}
check() {
	if python3 -c "import json,sys; j=json.load(open(sys.argv[1]));
sys.exit(0 if ($2) else 1)" "$out/$1.json" 2>"$out/py.err"; then
		ok
	else
		bad "$1: not ($2) $(cat "$out/py.err")"
	fi
}
