# SPDX-License-Identifier: MIT
# The static topology and the fabric XML loader.
libibfs_fabric_la_SOURCES += \
	src/fabric/topology.h src/fabric/topology.c \
	src/fabric/xml_fabric.h src/fabric/xml_fabric.c
