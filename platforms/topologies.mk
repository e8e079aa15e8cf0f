# SPDX-License-Identifier: MIT
# Ready-made fabrics written by `ibfsim topo gen` (the command is in each
# file's header comment): fat trees, a torus, a dragonfly, a ring for
# deadlock teaching and a hypercube.
dist_platforms_DATA += \
	platforms/fat-tree-k4-l2.xml platforms/fat-tree-k8-l2.xml \
	platforms/fat-tree-k4-l3.xml platforms/torus-4x4.xml \
	platforms/dragonfly-a4-p2-h2.xml platforms/ring-n4.xml \
	platforms/hypercube-d3.xml platforms/ring-n5-h2.xml
