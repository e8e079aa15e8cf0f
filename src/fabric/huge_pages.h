/* SPDX-License-Identifier: MIT */
/*
 * Glibc's heap on transparent huge pages, for the programs that build big
 * fabrics (huge_pages.c says why and how).
 */
#ifndef IBFS_FABRIC_HUGE_PAGES_H
#define IBFS_FABRIC_HUGE_PAGES_H

/*
 * Executes the program again, once, with glibc.malloc.hugetlb=1 added to
 * GLIBC_TUNABLES, unless IBFSIM_HUGEPAGES is 0 or the tunable is set (then,
 * or if the exec fails, it returns and the program runs on as it is).
 * Call first thing in main, with main's argv.
 */
void ibfs__huge_pages_restart(char **argv);

#endif
