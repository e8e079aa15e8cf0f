#!/bin/sh
# SPDX-License-Identifier: MIT
# ibfsim compare --html: the page, rendered by headless Chromium, holds
# the comparison's table (a row per figure of compare.csv, the same cells
# as the text table) and both plots gnuplot drew (the latency and flow
# throughput CDFs, each an inline SVG with a curve and a legend entry
# per model), and refers to nothing outside itself; with a flow workload
# (examples/websearch_k8.xml) a third plot, FCT slowdown by flow size,
# which a run without flows does not have; without gnuplot
# --html is refused (exit 2, nothing on stdout) before any run.
# Skips (77) without gnuplot, Chromium or python3 (scripts/setup.sh
# --tests installs them).
: "${IBFSIM:=./ibfsim}" "${top_srcdir:=.}"
for t in gnuplot chromium python3; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: needs $t"; exit 77; }
done
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

inc="$top_srcdir/examples/roce_incast.xml"
if "$IBFSIM" compare "$inc" --html "$out/c.html" --csv "$out" \
	>"$out/c.txt" 2>&1; then ok; else bad "compare: $(cat "$out/c.txt")"; fi
# Chromium as root needs --no-sandbox; the DOM after it parsed the page.
page=$(cd "$out" && pwd)/c.html
timeout 120 chromium --headless --no-sandbox --disable-gpu \
	--dump-dom "file://$page" >"$out/dom.html" 2>"$out/chromium.err"
[ -s "$out/dom.html" ] && ok || bad "chromium: $(tail -3 "$out/chromium.err")"
if python3 - "$out" <<'PY'
import csv, sys
from html.parser import HTMLParser
d = sys.argv[1]
class Dom(HTMLParser):
    def __init__(s):
        super().__init__()
        s.rows, s.cell, s.fig, s.figs, s.refs = {}, None, None, {}, []
        s.key, s.text = None, ""
    def handle_starttag(s, tag, a):
        a = dict(a)
        for k in ("src", "href", "xlink:href"):
            if k in a and not a[k].startswith("#"):
                s.refs.append(a[k])
        if tag == "tr":
            s.key = a.get("data-key")
            if s.key:
                s.rows[s.key] = []
        if tag == "td" and s.key:
            s.cell = ""
        if tag == "figure":
            s.fig = a.get("id")
            s.figs[s.fig] = {"svg": 0, "path": 0, "text": []}
        if s.fig and tag in ("svg", "path"):
            s.figs[s.fig][tag] += 1
        if s.fig and tag == "text":
            s.text = ""
    def handle_endtag(s, tag):
        if tag == "td" and s.cell is not None:
            s.rows[s.key].append(s.cell)
            s.cell = None
        if tag == "figure":
            s.fig = None
        if tag == "text" and s.fig:
            s.figs[s.fig]["text"].append(s.text.strip())
    def handle_data(s, data):
        if s.cell is not None:
            s.cell += data
        if s.fig:
            s.text += data
p = Dom()
p.feed(open(d + "/dom.html").read())
bad = []
keys = next(csv.reader(open(d + "/compare.csv")))[3:] + ["management",
                                                          "cable_lengths"]
if sorted(p.rows) != sorted(keys):
    bad.append("rows %s, compare.csv %s" % (sorted(p.rows), sorted(keys)))
# The text table's cells, row by row, are the page's.
text = {}
for line in open(d + "/c.txt"):
    if line.startswith("  "):
        cells = [c.strip() for c in line[2:].rstrip("\n").split("  ") if c.strip()]
        text[cells[0]] = cells[1:]
for k, cells in p.rows.items():
    label, vals = cells[0], cells[1:]
    if text.get(label) != vals:
        bad.append("row %s: page %s, text %s" % (k, vals, text.get(label)))
for fid in ("plot-latency-cdf", "plot-flow-throughput"):
    f = p.figs.get(fid)
    if not f or f["svg"] != 1 or f["path"] < 2:
        bad.append("%s: %s" % (fid, f))
    elif "ib" not in f["text"] or "roce" not in f["text"]:
        bad.append("%s: legend %s" % (fid, f["text"]))
if p.refs:
    bad.append("refers outside itself: %s" % p.refs[:3])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
then ok; else bad "the page's DOM"; fi

# With a flow workload, a third plot: each flow's slowdown by its size.
"$IBFSIM" compare "$top_srcdir/examples/websearch_k8.xml" \
	--html "$out/w.html" >/dev/null 2>&1 || bad "compare --html websearch"
python3 - "$out" <<'PY' && ok || bad "the FCT plot"
import re, sys
d = sys.argv[1]
w = open(d + "/w.html").read()
c = open(d + "/c.html").read()
f = re.search(r'<figure id="plot-fct-slowdown">(.*?)</figure>', w, re.S)
assert f and f.group(1).count("<svg") == 1, "no FCT plot with flows"
assert ">ib<" in f.group(1) and ">roce<" in f.group(1), "legend"
assert "plot-fct-slowdown" not in c, "an FCT plot without flows"
PY

# Without gnuplot: refused before any run.
mkdir "$out/bin"
PATH="$out/bin" "$IBFSIM" compare "$inc" --html "$out/x.html" \
	>"$out/r.out" 2>"$out/r.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$out/r.out" ] && [ ! -e "$out/x.html" ] &&
	grep -q "gnuplot, which is not installed" "$out/r.err"; then
	ok
else
	bad "without gnuplot: exit $rc, $(cat "$out/r.err")"
fi

echo "compare --html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
