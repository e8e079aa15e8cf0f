/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics for bad input. A loader that meets something it cannot accept
 * writes one sentence "FILE:LINE: what is wrong" into a struct ibfs_diag and
 * returns -1; the caller decides how to show it (the command line prints it
 * with an "ibfsim: " prefix and exits 2). The library itself never prints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fabric/diag.h"

/*
 * Keeps the sentence on one line: libxml2's messages carry newlines (a
 * second line with the bytes at fault, a comment quoted), and so may
 * values quoted from a file (&#10; in an attribute). Each run of blanks
 * that holds a control character becomes one space; none ends the line.
 */
static int diag_ctl(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

static void diag_one_line(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++) {
		if (!diag_ctl(*r)) {
			*w++ = *r;
			continue;
		}
		/* The blanks on both sides go with it. */
		while (w > s && w[-1] == ' ')
			w--;
		while (r[1] == ' ' || (r[1] && diag_ctl(r[1])))
			r++;
		if (r[1])
			*w++ = ' ';
	}
	*w = 0;
}

int ibfs__diag(struct ibfs_diag *d, const char *file, long line,
	       const char *fmt, ...)
{
	if (!d)
		return -1;

	size_t cap = sizeof(d->msg);
	int n;

	if (file && line > 0)
		n = snprintf(d->msg, cap, "%s:%ld: ", file, line);
	else if (file)
		n = snprintf(d->msg, cap, "%s: ", file);
	else
		n = 0;
	/* A file name longer than the buffer still leaves a terminated msg. */
	if (n < 0 || (size_t)n >= cap)
		n = (int)strlen(d->msg);

	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg + n, cap - (size_t)n, fmt, ap);
	va_end(ap);
	diag_one_line(d->msg);
	return -1;
}

int ibfs__diag_needs(struct ibfs_diag *d, const char *file, long line,
		     const char *el, const char *name)
{
	const char *an = name[0] && strchr("aeiou", name[0]) ? "an" : "a";

	return ibfs__diag(d, file, line, "<%s> needs %s '%s' attribute", el,
			  an, name);
}
