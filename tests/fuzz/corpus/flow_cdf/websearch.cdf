# SPDX-License-Identifier: MIT
# Web search flow sizes: the query and background traffic Alizadeh et al.
# measured in a production cluster ("Data Center TCP (DCTCP)", SIGCOMM
# 2010, section 2.2, the flow-size CDF of their figure 4), as the
# datacenter literature's simulations draw it (pFabric, DCQCN, HPCC, IRN).
#
# The points below are written from the published figure as those papers
# reproduce it; they are not copied from any file. The usual point list
# gives sizes in 1460-byte segments; here they are bytes, rounded to round
# figures (10 KB, 20 KB, ...). Most flows are small, most bytes are in
# flows of 1 MB and more; the mean of this piecewise linear CDF is
# 1,711,250 bytes (about 1.7 MB; the papers quote "about 1.6 MB").
# Uncertain: the exact sizes of the first points (the figure's smallest
# flows lie between a few KB and 10 KB; taken as a line from 0 here) and
# of the tail (the largest flows, 30 MB).
#
# Format (docs/scenario-format.md): SIZE PROBABILITY a line, SIZE in bytes,
# PROBABILITY = P(flow size <= SIZE); sizes increasing, the last at 1.
0         0
10000     0.15
20000     0.20
30000     0.30
50000     0.40
80000     0.53
200000    0.60
1000000   0.70
2000000   0.80
5000000   0.90
10000000  0.97
30000000  1
