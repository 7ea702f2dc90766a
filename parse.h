/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pure parsers: no printing, no exiting, no system state.
 * Each returns 0 or a negative errno and fills a struct parse_err that
 * nc2_parse_strerror() turns into the message main() reports. */
#ifndef NUMACTL2_PARSE_H
#define NUMACTL2_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's MAX_NUMNODES: node numbers below it are all a user may write
 * or the kernel's text may name. Only the checks of such numbers use it (the
 * parsers here, numa_maps, the table's nodeN names); tables of nodes are
 * sized from the nodes there are. */
#define PARSE_MAX_NODES 1024
#define WEIGHT_MAX 255

/* A weight of 0 (not named in a list, or the kernel's "system default" on
 * 6.9-6.15) is 1: the one place that says so. */
static inline unsigned nc2_weight_effective(unsigned w)
{
	return w ? w : 1;
}

enum parse_errkind {
	PE_NONE,
	PE_EMPTY,	/* empty string or empty item */
	PE_NUMBER,	/* not a number */
	PE_RANGE,	/* number out of range */
	PE_NODE,	/* bad node or node range */
	PE_WEIGHT,	/* weight outside 1-255 */
	PE_DUPLICATE,	/* node named twice */
	PE_SYNTAX,	/* missing ':' or junk */
};

struct parse_err {
	enum parse_errkind kind;
	char item[64];		/* the offending item, truncated */
	unsigned long node;	/* for PE_WEIGHT and PE_DUPLICATE */
};

/* Weights by node; 0 means the list did not name that node. The array
 * reaches the highest node named; nc2_weight_list_free() frees it. */
struct weight_list {
	uint8_t *weight;	/* max_node + 1 of them */
	unsigned count;		/* nodes named */
	unsigned max_node;	/* highest node named */
};

int nc2_parse_ulong(const char *s, unsigned long max, unsigned long *out);
int nc2_parse_weight_list(const char *s, struct weight_list *wl, struct parse_err *e);
void nc2_weight_list_free(struct weight_list *wl);
int nc2_parse_node_list(const char *s, struct parse_err *e);
int nc2_parse_list_numbers(const char *s, unsigned long max, struct parse_err *e);
int nc2_parse_size(const char *s, unsigned long long *out, struct parse_err *e);
int nc2_parse_octal_mode(const char *s, unsigned *out, struct parse_err *e);
void nc2_parse_strerror(const struct parse_err *e, const char *what, char *buf, size_t len);

#endif
