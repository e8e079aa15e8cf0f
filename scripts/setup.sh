#!/bin/sh
# SPDX-License-Identifier: MIT
# Idempotent setup shared by README's two commands and CI: installs the Debian
# packages ibfsim needs (only those missing), then configures and builds it.
set -e
cd "$(dirname "$0")/.."

PKGS="build-essential autoconf automake libtool pkg-config libsimgrid-dev \
libxml2-dev libxml2-utils check"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null
[ -f Makefile ] && [ Makefile -nt configure ] || ./configure -q ${IBFSIM_CONFIGURE_FLAGS:-}
make -s -j"$(nproc)" >/dev/null
