# SPDX-License-Identifier: MIT
# Topology generators and interchange formats.
libibfs_fabric_la_SOURCES += \
	src/fabric/topo_gen.h src/fabric/topo_gen.c
