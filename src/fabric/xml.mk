# SPDX-License-Identifier: MIT
# The static topology and the fabric XML loader, their tests and test data.
libibfs_fabric_la_SOURCES += \
	src/fabric/topology.h src/fabric/topology.c \
	src/fabric/xml_doc.h src/fabric/xml_doc.c \
	src/fabric/xml_fabric.h src/fabric/xml_fabric.c \
	src/fabric/xml_fabric_int.h src/fabric/xml_fabric_attrs.c \
	src/fabric/xml_fast.c

check_PROGRAMS += tests/check_topology tests/check_xml_fabric
tests_check_topology_SOURCES = tests/check_topology.c
tests_check_topology_CFLAGS = $(TEST_CFLAGS)
tests_check_topology_LDADD = libibfs_fabric.la $(TEST_LIBS)
tests_check_xml_fabric_SOURCES = tests/check_xml_fabric.c
tests_check_xml_fabric_CFLAGS = $(TEST_CFLAGS)
tests_check_xml_fabric_LDADD = libibfs_fabric.la $(TEST_LIBS)

# `ibfsim validate` on good and bad files, checked against xmllint.
TESTS += tests/validate.sh
EXTRA_DIST += tests/validate.sh

# Good and bad fabric files (one bad file per class of error).
EXTRA_DIST += \
	tests/data/fabric/bad-attribute.xml \
	tests/data/fabric/bad-buffer-zero.xml \
	tests/data/fabric/bad-buffer-mtu.xml \
	tests/data/fabric/bad-buffer-defaults.xml \
	tests/data/fabric/bad-buffer-hca.xml \
	tests/data/fabric/bad-comment.xml \
	tests/data/fabric/bad-newline-value.xml \
	tests/data/fabric/bad-profile.xml \
	tests/data/fabric/bad-utf8.xml \
	tests/data/fabric/bad-fabric-text.xml \
	tests/data/fabric/bad-profile-empty.xml \
	tests/data/fabric/bad-store-forward.xml \
	tests/data/fabric/bad-data-vls.xml \
	tests/data/fabric/bad-defaults-late.xml \
	tests/data/fabric/bad-duplicate.xml \
	tests/data/fabric/bad-element.xml \
	tests/data/fabric/bad-empty.xml \
	tests/data/fabric/bad-entity.xml \
	tests/data/fabric/bad-generate.xml \
	tests/data/fabric/bad-id-space.xml \
	tests/data/fabric/bad-malformed.xml \
	tests/data/fabric/bad-missing-attribute.xml \
	tests/data/fabric/bad-missing-node.xml \
	tests/data/fabric/bad-mtu.xml \
	tests/data/fabric/bad-port-range.xml \
	tests/data/fabric/bad-port-twice.xml \
	tests/data/fabric/bad-port-zero.xml \
	tests/data/fabric/bad-ports-zero.xml \
	tests/data/fabric/bad-prefix.xml \
	tests/data/fabric/bad-root.xml \
	tests/data/fabric/bad-guid.xml \
	tests/data/fabric/bad-guid-zero.xml \
	tests/data/fabric/bad-speed.xml \
	tests/data/fabric/bad-text.xml \
	tests/data/fabric/bad-unit-missing.xml \
	tests/data/fabric/bad-unit-overflow.xml \
	tests/data/fabric/bad-unit-unknown.xml \
	tests/data/fabric/bad-version.xml \
	tests/data/fabric/bad-width.xml \
	tests/data/fabric/good-all.xml \
	tests/data/fabric/good-generate.xml \
	tests/data/fabric/good-minimal.xml \
	tests/data/fabric/good-speeds.xml \
	tests/data/fabric/good-vls.xml

# The Ethernet switch's settings in fabric XML (shared-buffer, alpha).
check_PROGRAMS += tests/check_xml_fabric_eth
tests_check_xml_fabric_eth_SOURCES = tests/check_xml_fabric_eth.c
tests_check_xml_fabric_eth_CFLAGS = $(TEST_CFLAGS)
tests_check_xml_fabric_eth_LDADD = libibfs_fabric.la $(TEST_LIBS)
