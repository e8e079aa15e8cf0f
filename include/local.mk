# SPDX-License-Identifier: MIT
ibfsiminclude_HEADERS += include/ibfsim/ibfsim.h
ibfsiminclude_HEADERS += include/ibfsim/simulation.h
