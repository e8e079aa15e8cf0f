#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the library into a temporary DESTDIR and builds an example
# program the way a user would: its own source with nothing but
# `pkg-config --cflags --libs ibfsim` against the installed headers and
# library, then runs it. (examples/launch.c, the stand-in for the public
# simulation-assembly call, still needs the source tree's internal
# headers: it is compiled separately, with them.)
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "${top_builddir:-.}"
make -s install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' ibfsim.pc)
libdir=$(sed -n 's/^libdir=//p' ibfsim.pc | sed "s|\${exec_prefix}|$prefix|; s|\${prefix}|$prefix|")
root="$tmp/root"
test -f "$root$prefix/include/ibfsim/verbs.h"
test -f "$root$prefix/include/ibfsim/sim.h"
export PKG_CONFIG_PATH="$root$libdir/pkgconfig"
cflags=$(pkg-config --define-variable=prefix="$root$prefix" --cflags ibfsim)
libs=$(pkg-config --define-variable=prefix="$root$prefix" --libs ibfsim)
cc=${CC:-cc}
# The example's own code: public headers only, from the installed tree.
$cc -std=gnu11 -Wall -Wextra -Werror $cflags -I"$top_srcdir/examples" \
	-c "$top_srcdir/examples/rc_pingpong.c" -o "$tmp/pp.o"
$cc -std=gnu11 $cflags -I"$top_srcdir/src" -I"$top_srcdir/include" \
	-I"$top_srcdir/examples" $(pkg-config --cflags libxml-2.0) \
	-c "$top_srcdir/examples/launch.c" -o "$tmp/launch.o"
$cc "$tmp/pp.o" "$tmp/launch.o" -o "$tmp/pp" \
	-L"$root$libdir" $libs $(pkg-config --libs libxml-2.0)
LD_LIBRARY_PATH="$root$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	"$tmp/pp" 20 32 | tee "$tmp/out"
grep -q "rc_pingpong: 20 iterations of 32 bytes" "$tmp/out"
