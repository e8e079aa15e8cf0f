# SPDX-License-Identifier: MIT
# The fabric schema and the small reference fabrics, installed under
# $(pkgdatadir)/platforms (IBFSIM_PLATFORMS may point elsewhere at run time).
platformsdir = $(pkgdatadir)/platforms
dist_platforms_DATA = platforms/fabric.rng platforms/scenario.rng \
	platforms/sweep.rng \
	platforms/two-hca.xml \
	platforms/star.xml platforms/star-17.xml platforms/skeleton.xml \
	platforms/star-33-sdr.xml
# Flow-size CDFs of <pattern kind="flows" sizes="websearch|hadoop">.
workloadsdir = $(pkgdatadir)/platforms/workloads
dist_workloads_DATA = platforms/workloads/websearch.cdf \
	platforms/workloads/hadoop.cdf
