/* SPDX-License-Identifier: MIT */
/*
 * Shared by every Check program in tests/: each check_<area>.c defines one
 * suite function and ends with IBFS_CHECK_MAIN(that_suite). Check runs each
 * test in its own process (fork mode), as libuv runs its tests.
 */
#ifndef IBFS_TESTS_CHECK_COMMON_H
#define IBFS_TESTS_CHECK_COMMON_H

#include <check.h>
#include <stdlib.h>

#define IBFS_CHECK_MAIN(suite_fn)                                     \
	int main(void)                                                \
	{                                                             \
		SRunner *sr = srunner_create(suite_fn());             \
		srunner_run_all(sr, CK_NORMAL);                       \
		int failed = srunner_ntests_failed(sr);               \
		srunner_free(sr);                                     \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;          \
	}

/* Path of a file in the source tree (tests run from the build tree). */
#define IBFS_SRC(path) (getenv("top_srcdir") ? getenv("top_srcdir") : ".")

#endif
