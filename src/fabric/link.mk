# SPDX-License-Identifier: MIT
# Runtime fabric: packets, ports and links, credit-based flow control.
libibfs_fabric_la_SOURCES += \
	src/fabric/packet.h src/fabric/packet.c \
	src/fabric/link.h src/fabric/link.c \
	src/fabric/fabric.h src/fabric/fabric.c
