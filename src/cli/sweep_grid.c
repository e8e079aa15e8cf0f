/* SPDX-License-Identifier: MIT */
/*
 * Reading a sweep's grid (sweep.h; platforms/sweep.rng): the structure is
 * the schema's, the values are checked here with the file and line of
 * their <vary>: a dimension named once, models among the built ones,
 * seeds whole numbers, attribute paths of the form ELEMENT/...@ATTRIBUTE,
 * no empty value, and a grid of at most a million points.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "cli/sweep.h"
#include "fabric/units.h"
#include "fabric/xml_doc.h"

enum { SW_MAX_POINTS = 1000000 };

static char *sw_attr(xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *s = v ? strdup((const char *)v) : NULL;
	xmlFree(v);
	return s;
}

/* Appends value v (trimmed of spaces) to dimension dm. */
static int sw_add_value(struct ibfs_sweep_dim *dm, const char *v, size_t len)
{
	while (len && (*v == ' ' || *v == '\t' || *v == '\n')) {
		v++;
		len--;
	}
	while (len && (v[len - 1] == ' ' || v[len - 1] == '\t' ||
		       v[len - 1] == '\n'))
		len--;
	char **nv = realloc(dm->values, (dm->nvalues + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	dm->values = nv;
	nv[dm->nvalues] = strndup(v, len);
	if (!nv[dm->nvalues])
		return -1;
	dm->nvalues++;
	return 0;
}

/* The values="a,b" or <value> children of n. */
static int sw_values(xmlNode *n, struct ibfs_sweep_dim *dm)
{
	char *list = sw_attr(n, "values");
	if (list) {
		const char *p = list;
		int rc = 0;
		for (;;) {
			const char *c = strchr(p, ',');
			size_t len = c ? (size_t)(c - p) : strlen(p);
			rc |= sw_add_value(dm, p, len);
			if (!c)
				break;
			p = c + 1;
		}
		free(list);
		return rc;
	}
	for (xmlNode *c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		xmlChar *t = xmlNodeGetContent(c);
		int rc = sw_add_value(dm, t ? (const char *)t : "",
				      t ? strlen((const char *)t) : 0);
		xmlFree(t);
		if (rc)
			return -1;
	}
	return 0;
}

/* An attribute path ELEMENT/...@ATTRIBUTE, split into dm. */
static int sw_path(struct ibfs_sweep_dim *dm)
{
	const char *at = strchr(dm->name, '@');
	if (!at || at == dm->name || !at[1] || strchr(at + 1, '@') ||
	    strchr(at + 1, '/') || dm->name[0] == '/' || at[-1] == '/' ||
	    strstr(dm->name, "//"))
		return -1;
	for (const char *c = dm->name; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9') && !strchr("-_/@.", *c))
			return -1;
	dm->path = strndup(dm->name, (size_t)(at - dm->name));
	dm->attr = strdup(at + 1);
	return dm->path && dm->attr ? 0 : -1;
}

/* Dimension dm's kind and values, checked; -1 with d filled. */
static int sw_check_dim(const char *file, struct ibfs_sweep_dim *dm,
			struct ibfs_diag *d)
{
	if (!strcmp(dm->name, "model")) {
		dm->kind = IBFS_SW_MODEL;
	} else if (!strcmp(dm->name, "seed")) {
		dm->kind = IBFS_SW_SEED;
	} else {
		dm->kind = IBFS_SW_ATTR;
		if (sw_path(dm) < 0)
			return ibfs__diag(d, file, dm->line,
					  "vary name '%s': expected model, "
					  "seed or an attribute path "
					  "ELEMENT/...@ATTRIBUTE (e.g. "
					  "traffic/pattern@size)", dm->name);
	}
	for (size_t i = 0; i < dm->nvalues; i++) {
		const char *v = dm->values[i];
		uint64_t u;
		if (!*v)
			return ibfs__diag(d, file, dm->line,
					  "vary '%s': value %zu is empty",
					  dm->name, i + 1);
		if (dm->kind == IBFS_SW_MODEL && strcmp(v, "ib") &&
		    strcmp(v, "roce") && strcmp(v, "tcp"))
			return ibfs__diag(d, file, dm->line,
					  "vary model: '%s' is not a built "
					  "model (ib, roce, tcp)", v);
		if (dm->kind == IBFS_SW_SEED && ibfs__parse_uint(v, &u))
			return ibfs__diag(d, file, dm->line,
					  "vary seed: '%s' is not a whole "
					  "number", v);
	}
	return 0;
}

static int sw_read_vary(const char *file, xmlNode *n, struct ibfs_sweep *s,
			struct ibfs_diag *d)
{
	struct ibfs_sweep_dim *dm = &s->dims[s->ndims];
	*dm = (struct ibfs_sweep_dim){.line = ibfs__xml_line(n)};
	dm->name = sw_attr(n, "name");
	s->ndims++;
	if (!dm->name || sw_values(n, dm) < 0)
		return ibfs__diag(d, file, dm->line, "out of memory");
	for (size_t k = 0; k + 1 < s->ndims; k++)
		if (!strcmp(s->dims[k].name, dm->name))
			return ibfs__diag(d, file, dm->line,
					  "vary '%s' twice (line %ld): one "
					  "<vary> a dimension", dm->name,
					  s->dims[k].line);
	if (sw_check_dim(file, dm, d) < 0)
		return -1;
	if (s->npoints > SW_MAX_POINTS / dm->nvalues)
		return ibfs__diag(d, file, dm->line,
				  "the grid has more than %d points",
				  SW_MAX_POINTS);
	s->npoints *= dm->nvalues;
	return 0;
}

static int sw_read(const char *path, xmlNode *root, struct ibfs_sweep *s,
		   struct ibfs_diag *d)
{
	size_t n = 0;
	for (xmlNode *c = root->children; c; c = c->next)
		n += c->type == XML_ELEMENT_NODE;
	s->dims = calloc(n, sizeof(*s->dims));
	s->file = strdup(path);
	s->name = sw_attr(root, "name");
	if (!s->dims || !s->file)
		return ibfs__diag(d, path, 0, "out of memory");
	s->npoints = 1;
	for (xmlNode *c = root->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)c->name, "scenario")) {
			s->scenario = sw_attr(c, "file");
			continue;
		}
		if (sw_read_vary(path, c, s, d) < 0)
			return -1;
	}
	return 0;
}

int ibfs_cli_sweep_load(const char *path, struct ibfs_sweep *s,
			struct ibfs_diag *d)
{
	*s = (struct ibfs_sweep){0};
	xmlDoc *doc = ibfs__xml_parse_file(path, d);
	if (!doc)
		return -1;
	xmlNode *root = xmlDocGetRootElement(doc);
	int rc = -1;
	if (strcmp((const char *)root->name, "sweep"))
		ibfs__diag(d, path, ibfs__xml_line(root),
			   "the root element must be <sweep>");
	else if (ibfs__xml_check_schema(doc, "sweep.rng", path, d) == 0)
		rc = sw_read(path, root, s, d);
	xmlFreeDoc(doc);
	if (rc < 0)
		ibfs_cli_sweep_free(s);
	return rc;
}

void ibfs_cli_sweep_free(struct ibfs_sweep *s)
{
	for (size_t k = 0; k < s->ndims; k++) {
		struct ibfs_sweep_dim *dm = &s->dims[k];
		for (size_t i = 0; i < dm->nvalues; i++)
			free(dm->values[i]);
		free(dm->values);
		free(dm->name);
		free(dm->path);
		free(dm->attr);
	}
	free(s->dims);
	free(s->file);
	free(s->name);
	free(s->scenario);
	*s = (struct ibfs_sweep){0};
}

const char *ibfs_cli_sweep_value(const struct ibfs_sweep *s, size_t p,
				 size_t k)
{
	size_t stride = 1;
	for (size_t j = s->ndims; j-- > k + 1;)
		stride *= s->dims[j].nvalues;
	const struct ibfs_sweep_dim *dm = &s->dims[k];
	return dm->values[p / stride % dm->nvalues];
}

/*
 * Calls fn on each element under n whose names from n down follow path
 * ("a/b": a child a of n, then its children b); returns how many.
 */
static size_t sw_walk(xmlNode *n, const char *path,
		      void (*fn)(xmlNode *, const char *, const char *),
		      const char *attr, const char *value)
{
	const char *slash = strchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : strlen(path), count = 0;
	for (xmlNode *c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE ||
		    strlen((const char *)c->name) != len ||
		    strncmp((const char *)c->name, path, len))
			continue;
		if (slash) {
			count += sw_walk(c, slash + 1, fn, attr, value);
		} else {
			if (fn)
				fn(c, attr, value);
			count++;
		}
	}
	return count;
}

static void sw_set(xmlNode *n, const char *attr, const char *value)
{
	xmlSetProp(n, (const xmlChar *)attr, (const xmlChar *)value);
}

size_t ibfs_cli_sweep_matches(const struct ibfs_sweep *s, size_t k,
			      xmlDoc *doc)
{
	const struct ibfs_sweep_dim *dm = &s->dims[k];
	return sw_walk(xmlDocGetRootElement(doc), dm->path, NULL, NULL, NULL);
}

void ibfs_cli_sweep_apply(const struct ibfs_sweep *s, size_t p, xmlDoc *doc)
{
	for (size_t k = 0; k < s->ndims; k++) {
		const struct ibfs_sweep_dim *dm = &s->dims[k];
		if (dm->kind == IBFS_SW_ATTR)
			sw_walk(xmlDocGetRootElement(doc), dm->path, sw_set,
				dm->attr, ibfs_cli_sweep_value(s, p, k));
	}
}
