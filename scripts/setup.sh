#!/bin/sh
# SPDX-License-Identifier: MIT
# The one setup shared by README's two commands and by CI. Idempotent:
# installs only the Debian packages that are missing, regenerates the build
# system only when configure.ac or a Makefile fragment is newer, and builds.
#
#   sh scripts/setup.sh          what running ibfsim needs
#   sh scripts/setup.sh --tests  also the real tools the test suite checks
#                                against (OpenSM on ibsim, tshark)
#   sh scripts/setup.sh --fuzz   also clang and its libFuzzer runtime, for
#                                bench/fuzz.sh (`make fuzz`)
set -e
cd "$(dirname "$0")/.."

PKGS="build-essential autoconf automake libtool pkg-config libsimgrid-dev \
libxml2-dev libxml2-utils check"
# Conformance tests: the real OpenSM over ibsim's simulated management
# plane, infiniband-diags to read LFTs back, tshark to dissect captures;
# python3 for the ICRC/VCRC checks of captures and ftree_shift.sh, which
# would otherwise skip those checks on a machine without it; mandoc to lint
# the man page; gnuplot draws compare --html's plots, and headless Chromium
# renders that page for its test; Open MPI's mpirun runs a sweep over ranks.
TEST_PKGS="opensm ibsim-utils infiniband-diags tshark valgrind python3 mandoc \
gnuplot-nox chromium openmpi-bin"

# The fuzz harnesses (tests/fuzz/) are built with clang's libFuzzer, which
# Debian ships in libclang-rt-dev beside the compiler.
FUZZ_PKGS="clang libclang-rt-14-dev"

[ "${1:-}" = "--tests" ] && PKGS="$PKGS $TEST_PKGS"
[ "${1:-}" = "--fuzz" ] && PKGS="$PKGS $FUZZ_PKGS"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null
fi

# A fresh clone has no configure; afterwards make's own rebuild rules rerun
# automake and configure when their inputs change.
[ -x configure ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
[ -f Makefile ] || ./configure -q ${IBFSIM_CONFIGURE_FLAGS:-}
make -s -j"$(nproc)" >/dev/null
