/* SPDX-License-Identifier: MIT */
/*
 * Glibc's heap on transparent huge pages: a program that builds big
 * fabrics executes itself again with the tunable that asks for them.
 */
#define _DEFAULT_SOURCE /* setenv, unsetenv, strdup */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/huge_pages.h"

/*
 * Huge pages for the big runs. A large fabric touches tens of megabytes at
 * random (ports, switch queues, forwarding tables, queue pairs, packets,
 * events), and with 4 KiB pages almost every cache miss is a TLB miss as
 * well. Debian's kernels back memory with transparent huge pages only where
 * the program asked for them with madvise(MADV_HUGEPAGE)
 * (/sys/kernel/mm/transparent_hugepage/enabled is "madvise"), which glibc
 * does for its whole heap when the tunable glibc.malloc.hugetlb=1 is set
 * (glibc 2.35 and later; Debian 12 has 2.36). Tunables are read when a
 * program starts, so a program that asks (`ibfsim run` and `route`, and
 * bench_fabric, which measures what those commands give) executes itself
 * again, once, with the tunable added. It trades memory for time: a run
 * of thousands of HCAs takes about a third less time and half as much
 * memory again, and one that fits the caches gains nothing (figures:
 * docs/performance.md). Results do not depend on it.
 *
 * Not done when IBFSIM_HUGEPAGES=0, on the second start (marked by
 * IBFSIM_HUGEPAGES=restarted, so that an environment that drops the tunable
 * cannot loop), when the tunable is already set, or under valgrind (its
 * preload library would not follow the exec); if the exec fails the
 * command runs on with small pages.
 */
void ibfs__huge_pages_restart(char **argv)
{
	const char *tun = getenv("GLIBC_TUNABLES");
	const char *pre = getenv("LD_PRELOAD");
	const char *opt = getenv("IBFSIM_HUGEPAGES");
	char buf[1024];

	if ((opt && (!strcmp(opt, "0") || !strcmp(opt, "restarted"))) ||
	    (tun && strstr(tun, "glibc.malloc.hugetlb")) ||
	    (pre && strstr(pre, "vgpreload")))
		return;
	int n = snprintf(buf, sizeof(buf), "%s%sglibc.malloc.hugetlb=1",
			 tun ? tun : "", tun && *tun ? ":" : "");

	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	/*
	 * Copies of the values to restore: setenv may invalidate what getenv
	 * returned before (POSIX), so tun and opt are not used after it.
	 */
	char *old = tun ? strdup(tun) : NULL;
	char *old_opt = opt ? strdup(opt) : NULL;

	if ((tun && !old) || (opt && !old_opt) ||
	    setenv("GLIBC_TUNABLES", buf, 1) ||
	    setenv("IBFSIM_HUGEPAGES", "restarted", 1)) {
		free(old);
		free(old_opt);
		return;
	}
	execv("/proc/self/exe", argv);
	/* Still here: run on as we are, with the environment as it was. */
	if (old_opt)
		setenv("IBFSIM_HUGEPAGES", old_opt, 1);
	else
		unsetenv("IBFSIM_HUGEPAGES");
	if (old)
		setenv("GLIBC_TUNABLES", old, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	free(old);
	free(old_opt);
}
