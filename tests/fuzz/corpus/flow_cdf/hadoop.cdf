# SPDX-License-Identifier: MIT
# Hadoop flow sizes: the Hadoop cluster of Roy et al., "Inside the Social
# Network's (Datacenter) Network" (SIGCOMM 2015, section 5.1, the flow
# size CDF of their figure 6), as the datacenter literature's simulations
# draw it (HPCC, SIGCOMM 2019, "FB_Hadoop").
#
# The points below are read approximately from the published figure; they
# are not copied from any file, and each is uncertain to within a few
# percent of probability: most flows are small (half under about 1 KB,
# three quarters under 10 KB), a few percent reach a megabyte, the largest
# about 10 MB. The mean of this piecewise linear CDF is 213,057.5 bytes
# (about 210 KB).
#
# Format (docs/scenario-format.md): SIZE PROBABILITY a line, SIZE in bytes,
# PROBABILITY = P(flow size <= SIZE); sizes increasing, the last at 1.
100       0
300       0.15
1000      0.50
2000      0.60
10000     0.75
100000    0.90
1000000   0.97
10000000  1
