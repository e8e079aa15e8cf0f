/* SPDX-License-Identifier: MIT */
/*
 * A small strict JSON reader (RFC 8259) for tests that check files the
 * simulator writes (timelines): it builds a tree of objects, arrays,
 * strings (escapes decoded, \u only below U+0080 or as UTF-8 for the
 * BMP), numbers (kept as their text, grammar checked), true, false and
 * null, and rejects anything else, trailing bytes included. Header-only so
 * that each test program takes what it needs; memory is freed with
 * jm_free.
 */
#ifndef IBFS_TESTS_CHECK_TRACE_JSON_H
#define IBFS_TESTS_CHECK_TRACE_JSON_H

#include <stdlib.h>
#include <string.h>

enum jm_type { JM_NULL, JM_BOOL, JM_NUM, JM_STR, JM_ARR, JM_OBJ };

struct jm {
	enum jm_type type;
	char *s;           /* string value or number text */
	size_t n;          /* children */
	struct jm *kid;    /* children (array items or object values) */
	char **key;        /* object keys */
};

struct jm_in {
	const char *p, *end;
	int depth;
};

static void jm_free_kids(struct jm *v)
{
	for (size_t i = 0; i < v->n; i++) {
		jm_free_kids(&v->kid[i]);
		if (v->key)
			free(v->key[i]);
	}
	free(v->kid);
	free(v->key);
	free(v->s);
}

static inline void jm_free(struct jm *v)
{
	if (v) {
		jm_free_kids(v);
		free(v);
	}
}

static void jm_ws(struct jm_in *in)
{
	while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' ||
				   *in->p == '\n' || *in->p == '\r'))
		in->p++;
}

static int jm_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char *jm_string(struct jm_in *in)
{
	if (in->p >= in->end || *in->p != '"')
		return NULL;
	in->p++;
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	while (s && in->p < in->end && *in->p != '"') {
		unsigned char c = (unsigned char)*in->p++;
		unsigned cp = c;

		if (c < 0x20)
			goto bad;
		if (c == '\\') {
			if (in->p >= in->end)
				goto bad;
			char e = *in->p++;
			const char *m = strchr("\"\\/bfnrt", e);

			if (e && m) {
				cp = (unsigned char)"\"\\/\b\f\n\r\t"[m -
							 "\"\\/bfnrt"];
			} else if (e == 'u' && in->end - in->p >= 4) {
				cp = 0;
				for (int k = 0; k < 4; k++) {
					int h = jm_hex(*in->p++);

					if (h < 0)
						goto bad;
					cp = cp << 4 | (unsigned)h;
				}
				if (cp >= 0xD800 && cp < 0xE000)
					goto bad; /* surrogates: not needed */
			} else {
				goto bad;
			}
		}
		if (n + 4 >= cap) {
			char *t = realloc(s, cap *= 2);

			if (!t)
				goto bad;
			s = t;
		}
		if (c == '\\' && cp >= 0x80) {
			if (cp < 0x800) {
				s[n++] = (char)(0xC0 | cp >> 6);
			} else {
				s[n++] = (char)(0xE0 | cp >> 12);
				s[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
			}
			s[n++] = (char)(0x80 | (cp & 0x3F));
		} else {
			s[n++] = (char)cp;
		}
	}
	if (!s || in->p >= in->end)
		goto bad;
	in->p++;
	s[n] = 0;
	return s;
bad:
	free(s);
	return NULL;
}

static int jm_digits(struct jm_in *in)
{
	const char *b = in->p;

	while (in->p < in->end && *in->p >= '0' && *in->p <= '9')
		in->p++;
	return in->p > b;
}

static int jm_value(struct jm_in *in, struct jm *v);

static int jm_push(struct jm *v, struct jm *item, char *key)
{
	struct jm *k = realloc(v->kid, (v->n + 1) * sizeof(*k));

	if (!k)
		return -1;
	v->kid = k;
	if (v->type == JM_OBJ) {
		char **ks = realloc(v->key, (v->n + 1) * sizeof(*ks));

		if (!ks)
			return -1;
		v->key = ks;
		v->key[v->n] = key;
	}
	v->kid[v->n++] = *item;
	return 0;
}

static int jm_container(struct jm_in *in, struct jm *v, char close)
{
	in->p++;
	if (++in->depth > 64)
		return -1;
	jm_ws(in);
	if (in->p < in->end && *in->p == close) {
		in->p++;
		in->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		struct jm item;

		jm_ws(in);
		if (close == '}') {
			if (!(key = jm_string(in)))
				return -1;
			jm_ws(in);
			if (in->p >= in->end || *in->p != ':') {
				free(key);
				return -1;
			}
			in->p++;
		}
		if (jm_value(in, &item) < 0) {
			free(key);
			return -1;
		}
		if (jm_push(v, &item, key) < 0) {
			jm_free_kids(&item);
			free(key);
			return -1;
		}
		jm_ws(in);
		if (in->p >= in->end)
			return -1;
		if (*in->p == close) {
			in->p++;
			in->depth--;
			return 0;
		}
		if (*in->p++ != ',')
			return -1;
	}
}

static int jm_value(struct jm_in *in, struct jm *v)
{
	memset(v, 0, sizeof(*v));
	jm_ws(in);
	if (in->p >= in->end)
		return -1;
	char c = *in->p;

	if (c == '{' || c == '[') {
		v->type = c == '{' ? JM_OBJ : JM_ARR;
		if (jm_container(in, v, c == '{' ? '}' : ']') < 0) {
			jm_free_kids(v);
			return -1;
		}
		return 0;
	}
	if (c == '"') {
		v->type = JM_STR;
		return (v->s = jm_string(in)) ? 0 : -1;
	}
	static const char *const lit[] = {"true", "false", "null"};

	for (int i = 0; i < 3; i++) {
		size_t l = strlen(lit[i]);

		if ((size_t)(in->end - in->p) >= l &&
		    !strncmp(in->p, lit[i], l)) {
			in->p += l;
			v->type = i < 2 ? JM_BOOL : JM_NULL;
			return 0;
		}
	}
	/* number = [ minus ] int [ frac ] [ exp ] */
	const char *b = in->p;

	if (*in->p == '-')
		in->p++;
	if (in->p < in->end && *in->p == '0')
		in->p++;
	else if (!jm_digits(in))
		return -1;
	if (in->p < in->end && *in->p == '.') {
		in->p++;
		if (!jm_digits(in))
			return -1;
	}
	if (in->p < in->end && (*in->p == 'e' || *in->p == 'E')) {
		in->p++;
		if (in->p < in->end && (*in->p == '+' || *in->p == '-'))
			in->p++;
		if (!jm_digits(in))
			return -1;
	}
	v->type = JM_NUM;
	v->s = strndup(b, (size_t)(in->p - b));
	return v->s ? 0 : -1;
}

/* Parses len bytes of text; NULL unless it is one JSON value exactly. */
static inline struct jm *jm_parse(const char *text, size_t len)
{
	struct jm_in in = {text, text + len, 0};
	struct jm *v = malloc(sizeof(*v));

	if (!v || jm_value(&in, v) < 0) {
		free(v);
		return NULL;
	}
	jm_ws(&in);
	if (in.p != in.end) {
		jm_free(v);
		return NULL;
	}
	return v;
}

/* The member `key` of object v, or NULL. */
static inline const struct jm *jm_get(const struct jm *v, const char *key)
{
	if (!v || v->type != JM_OBJ)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->key[i], key))
			return &v->kid[i];
	return NULL;
}

/* The string member `key`, or NULL. */
static inline const char *jm_str(const struct jm *v, const char *key)
{
	const struct jm *m = jm_get(v, key);

	return m && m->type == JM_STR ? m->s : NULL;
}

/* The number member `key` as its text, or NULL. */
static inline const char *jm_num(const struct jm *v, const char *key)
{
	const struct jm *m = jm_get(v, key);

	return m && m->type == JM_NUM ? m->s : NULL;
}

#endif
