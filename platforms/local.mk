# SPDX-License-Identifier: MIT
platformsdir = $(pkgdatadir)/platforms
dist_platforms_DATA = platforms/fabric.rng
