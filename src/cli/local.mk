# SPDX-License-Identifier: MIT
bin_PROGRAMS += ibfsim
ibfsim_SOURCES = src/cli/commands.h src/cli/main.c src/cli/cmd_run.c \
	src/cli/cmd_validate.c src/cli/cmd_route.c src/cli/cmd_topo.c \
	src/cli/cmd_perftest.c src/cli/cmd_compare.c
ibfsim_LDADD = libibfsim.la $(SIMGRID_LIBS) $(LIBXML_LIBS) -lm
