// SPDX-License-Identifier: GPL-2.0-or-later
/* Pure parsers for numactl2's own arguments (node strings go through libnuma). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static void set_err(struct parse_err *e, enum parse_errkind kind,
		    const char *item, size_t len, unsigned long node)
{
	if (len >= sizeof(e->item))
		len = sizeof(e->item) - 1;
	e->kind = kind;
	memcpy(e->item, item, len);
	e->item[len] = '\0';
	e->node = node;
}

/* The one number primitive: base 10 digits only, no sign, no blanks,
 * checked against max before anything narrows it. */
int nc2_parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* nc2_parse_ulong() on the span [s, s+len). */
static int parse_span(const char *s, size_t len, unsigned long max, unsigned long *out)
{
	char buf[32];

	/* Leading zeros do not make a number larger (strtoul reads "000...01" as 1). */
	while (len > 1 && *s == '0') {
		s++;
		len--;
	}
	if (len == 0 || len >= sizeof(buf))
		return len ? -ERANGE : -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return nc2_parse_ulong(buf, max, out);
}

/* "N" or "A-B" with A <= B. */
static int parse_node_range(const char *s, size_t len, unsigned long *lo, unsigned long *hi)
{
	const char *dash = memchr(s, '-', len);

	if (!dash) {
		if (parse_span(s, len, PARSE_MAX_NODES - 1, lo) < 0)
			return -EINVAL;
		*hi = *lo;
		return 0;
	}
	if (parse_span(s, (size_t)(dash - s), PARSE_MAX_NODES - 1, lo) < 0 ||
	    parse_span(dash + 1, len - (size_t)(dash - s) - 1, PARSE_MAX_NODES - 1, hi) < 0 ||
	    *lo > *hi)
		return -EINVAL;
	return 0;
}

/* Room for nodes up to HI: the list is as long as its highest node. */
static int grow(struct weight_list *wl, unsigned long hi)
{
	size_t had = wl->weight ? wl->max_node + 1 : 0;
	uint8_t *w;

	if (hi < had)
		return 0;
	w = realloc(wl->weight, hi + 1);
	if (!w)
		return -ENOMEM;
	memset(w + had, 0, hi + 1 - had);
	wl->weight = w;
	wl->max_node = (unsigned)hi;
	return 0;
}

static int add_weight_item(const char *item, size_t len, struct weight_list *wl,
			   struct parse_err *e)
{
	const char *colon = memchr(item, ':', len);
	unsigned long lo, hi, w;
	size_t nlen;

	if (len == 0)
		return set_err(e, PE_EMPTY, item, len, 0), -EINVAL;
	if (!colon)
		return set_err(e, PE_SYNTAX, item, len, 0), -EINVAL;
	nlen = (size_t)(colon - item);
	if (parse_node_range(item, nlen, &lo, &hi) < 0)
		return set_err(e, PE_NODE, item, nlen, 0), -EINVAL;
	if (parse_span(colon + 1, len - nlen - 1, WEIGHT_MAX, &w) < 0 || w == 0)
		return set_err(e, PE_WEIGHT, colon + 1, len - nlen - 1, lo), -EINVAL;
	if (grow(wl, hi) < 0)
		return -ENOMEM;
	for (unsigned long n = lo; n <= hi; n++) {
		if (wl->weight[n])
			return set_err(e, PE_DUPLICATE, item, len, n), -EINVAL;
		wl->weight[n] = (uint8_t)w;
		wl->count++;
	}
	return 0;
}

static int add_weight_items(const char *s, struct weight_list *wl, struct parse_err *e)
{
	if (*s == '\0')
		return set_err(e, PE_EMPTY, s, 0, 0), -EINVAL;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		int rc = add_weight_item(s, len, wl, e);

		if (rc < 0)
			return rc;
		if (!comma)
			return 0;
		s = comma + 1;
		if (*s == '\0')
			return set_err(e, PE_EMPTY, s, 0, 0), -EINVAL;
	}
}

/* "NODES:WEIGHT[,NODES:WEIGHT...]", NODES being N or A-B, WEIGHT 1-255.
 * -ENOMEM when the list cannot grow; on any error WL holds nothing. */
int nc2_parse_weight_list(const char *s, struct weight_list *wl, struct parse_err *e)
{
	int rc;

	memset(wl, 0, sizeof(*wl));
	e->kind = PE_NONE;
	rc = add_weight_items(s, wl, e);
	if (rc < 0)
		nc2_weight_list_free(wl);
	return rc;
}

void nc2_weight_list_free(struct weight_list *wl)
{
	free(wl->weight);
	memset(wl, 0, sizeof(*wl));
}

/* A node list as libnuma reads one, without its machine: "all", or items
 * "N" or "A-B" (A <= B, below PARSE_MAX_NODES) between single commas, after
 * an optional '!' or '+'. Which nodes exist is the machine's to say. */
int nc2_parse_node_list(const char *s, struct parse_err *e)
{
	e->kind = PE_NONE;
	if (*s == '!' || *s == '+')
		s++;
	if (strcmp(s, "all") == 0)
		return 0;
	for (;;) {
		size_t len = 0;
		unsigned long lo, hi;

		while (s[len] && s[len] != ',')
			len++;
		if (len == 0)
			return set_err(e, PE_EMPTY, s, 0, 0), -EINVAL;
		if (parse_node_range(s, len, &lo, &hi) < 0)
			return set_err(e, PE_NODE, s, len, 0), -EINVAL;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/* libnuma reads node and CPU numbers with strtoul() into an int, so
 * 4294967296 becomes node 0: every number of a plain list (one without a
 * "netdev:"-style prefix) must fit below max first. */
int nc2_parse_list_numbers(const char *s, unsigned long max, struct parse_err *e)
{
	e->kind = PE_NONE;
	if (strchr(s, ':'))
		return 0;
	while (*s) {
		size_t len = 0;
		unsigned long v;

		while (s[len] >= '0' && s[len] <= '9')
			len++;
		if (len && parse_span(s, len, max, &v) < 0)
			return set_err(e, PE_RANGE, s, len, 0), -ERANGE;
		s += len ? len : 1;
	}
	return 0;
}

/* Bytes, with an optional k, m, g or t suffix (powers of 1024), as numactl's --length. */
int nc2_parse_size(const char *s, unsigned long long *out, struct parse_err *e)
{
	size_t len = strlen(s);
	const char *units = "kmgt";
	const char *u;
	unsigned long v;
	unsigned shift = 0;

	e->kind = PE_NONE;
	if (len && (u = strchr(units, s[len - 1] | 0x20))) {
		shift = 10 * (unsigned)(u - units + 1);
		len--;
	}
	if (parse_span(s, len, ~0UL, &v) < 0)
		return set_err(e, PE_NUMBER, s, strlen(s), 0), -EINVAL;
	if (shift && v > (~0ULL >> shift))
		return set_err(e, PE_RANGE, s, strlen(s), 0), -ERANGE;
	*out = (unsigned long long)v << shift;
	return 0;
}

int nc2_parse_octal_mode(const char *s, unsigned *out, struct parse_err *e)
{
	char *end;
	unsigned long v;

	e->kind = PE_NONE;
	if (s[0] < '0' || s[0] > '7')
		return set_err(e, PE_NUMBER, s, strlen(s), 0), -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (*end != '\0' || errno || v > 07777)
		return set_err(e, PE_NUMBER, s, strlen(s), 0), -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* what names the argument, such as "weight list" or "length". */
void nc2_parse_strerror(const struct parse_err *e, const char *what, char *buf, size_t len)
{
	switch (e->kind) {
	case PE_WEIGHT:
		snprintf(buf, len, "invalid weight '%s' for node %lu (1-%d)",
			 e->item, e->node, WEIGHT_MAX);
		break;
	case PE_DUPLICATE:
		snprintf(buf, len, "node %lu named twice in %s: '%s'", e->node, what, e->item);
		break;
	case PE_NODE:
		snprintf(buf, len, "invalid node '%s' in %s (0-%d, or A-B with A <= B)",
			 e->item, what, PARSE_MAX_NODES - 1);
		break;
	case PE_EMPTY:
		snprintf(buf, len, "empty item in %s", what);
		break;
	case PE_SYNTAX:
		snprintf(buf, len, "invalid %s item '%s' (expected NODES:WEIGHT)", what, e->item);
		break;
	case PE_RANGE:
		snprintf(buf, len, "%s '%s' is too large", what, e->item);
		break;
	default:
		snprintf(buf, len, "invalid %s: '%s'", what, e->item);
		break;
	}
}
