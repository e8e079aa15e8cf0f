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
# A sanitizer build (configure --enable-sanitizers) installs an
# instrumented library: programs linking it need the same runtime first.
cc="${CC:-cc} ${SAN_CFLAGS:-}"
$cc -std=gnu11 -Wall -Wextra -Werror $cflags \
	-c "$top_srcdir/examples/launch.c" -o "$tmp/launch.o"
export LD_LIBRARY_PATH="$root$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fabric="$top_srcdir/platforms/two-hca.xml"
# Each example with small arguments, and the line it must print.
for ex in "rc_pingpong 20 32|rc_pingpong: 20 iterations of 32 bytes" \
	"rdma_write_bw 10 4096|rdma_write_bw: server checked 4096 bytes" \
	"rdma_read 4096 5|rdma_read: 4096 bytes checked"; do
	args=${ex%%|*}
	want=${ex#*|}
	prog=${args%% *}
	$cc -std=gnu11 -Wall -Wextra -Werror $cflags \
		-c "$top_srcdir/examples/$prog.c" -o "$tmp/$prog.o"
	$cc "$tmp/$prog.o" "$tmp/launch.o" -o "$tmp/$prog" -L"$root$libdir" \
		$libs
	"$tmp/$prog" --fabric "$fabric" ${args#* } | tee "$tmp/out"
	grep -q "$want" "$tmp/out"
done
