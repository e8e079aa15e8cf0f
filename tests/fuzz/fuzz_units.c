// SPDX-License-Identifier: MIT
/*
 * Fuzz harness: the units parser (units.c): the input as a time, a size,
 * a length, a rate and a plain number, each result written back as a
 * time, and every error given its sentence.
 */
#include <stdlib.h>

#include "fabric/units.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = ibfs_fuzz_string(data, size);
	uint64_t v = 0;
	char buf[64];
	int rc;

	if ((rc = ibfs__parse_time(s, &v)) == 0)
		ibfs__format_time(v, buf, sizeof(buf));
	else
		(void)ibfs__unit_strerror(rc, "time");
	if ((rc = ibfs__parse_size(s, &v)) == 0)
		ibfs__format_time(v, buf, sizeof(buf));
	else
		(void)ibfs__unit_strerror(rc, "size");
	if ((rc = ibfs__parse_length(s, &v)) == 0)
		ibfs__format_time(v, buf, sizeof(buf));
	else
		(void)ibfs__unit_strerror(rc, "length");
	if ((rc = ibfs__parse_rate(s, &v)) == 0)
		ibfs__format_time(v, buf, sizeof(buf));
	else
		(void)ibfs__unit_strerror(rc, "rate");
	if ((rc = ibfs__parse_uint(s, &v)) == 0)
		ibfs__format_time(v, buf, sizeof(buf));
	free(s);
	return 0;
}
