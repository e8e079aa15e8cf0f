# SPDX-License-Identifier: MIT
ibfsiminclude_HEADERS += include/ibfsim/ibfsim.h
