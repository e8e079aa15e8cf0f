#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the library into a temporary DESTDIR and builds an example
# program the way a user would: its sources with nothing but
# `pkg-config --cflags --libs ibfsim` against the installed headers and
# library, then runs it.
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
for f in rc_pingpong launch; do
	$cc -std=gnu11 -Wall -Wextra -Werror $cflags \
		-c "$top_srcdir/examples/$f.c" -o "$tmp/$f.o"
done
$cc "$tmp/rc_pingpong.o" "$tmp/launch.o" -o "$tmp/pp" -L"$root$libdir" $libs
LD_LIBRARY_PATH="$root$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	"$tmp/pp" --fabric "$top_srcdir/platforms/two-hca.xml" 20 32 |
	tee "$tmp/out"
grep -q "rc_pingpong: 20 iterations of 32 bytes" "$tmp/out"
