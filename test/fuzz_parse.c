// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target for the pure parsers: no crash, no undefined behaviour,
 * a weight list that parses describes itself consistently, a node list
 * fails nc2_parse_list_numbers exactly when libnuma would wrap a number of it,
 * and one nc2_parse_node_list takes has nothing else in it. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* Whether a digit run of s is above max, read the way libnuma reads it
 * (strtoul). */
static bool has_number_above(const char *s, unsigned long max)
{
	char *end;

	for (const char *p = s; *p; p = end) {
		unsigned long v;

		if (*p < '0' || *p > '9') {
			end = (char *)p + 1;
			continue;
		}
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno == ERANGE || v > max)
			return true;
	}
	return false;
}

/* nc2_parse_list_numbers refuses a plain list exactly when it has a number
 * above max; a list with a ':' prefix is libnuma's to read. */
static void check_list_numbers(const char *s)
{
	const unsigned long max = 1023;
	struct parse_err e;
	char msg[200];
	int rc = nc2_parse_list_numbers(s, max, &e);

	if (rc < 0)
		nc2_parse_strerror(&e, "node list", msg, sizeof(msg));
	if (strchr(s, ':') ? rc < 0 : (rc < 0) != has_number_above(s, max))
		abort();
	if (rc < 0 && e.kind != PE_RANGE)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_weights(const char *s)
{
	static struct weight_list wl;
	struct parse_err e;
	unsigned named = 0;
	char msg[200];

	if (nc2_parse_weight_list(s, &wl, &e) < 0) {
		nc2_parse_strerror(&e, "weight list", msg, sizeof(msg));
		return;
	}
	for (unsigned n = 0; n <= wl.max_node; n++)
		named += wl.weight[n] != 0;
	if (named != wl.count || named == 0 || !wl.weight[wl.max_node])
		abort();
	nc2_weight_list_free(&wl);
}

/* A node list nc2_parse_node_list takes is one libnuma reads without wrapping
 * a number (nc2_parse_list_numbers takes it too), of its characters only. */
static void check_node_list(const char *s)
{
	const char *body = *s == '!' || *s == '+' ? s + 1 : s;
	struct parse_err e;
	char msg[200];

	if (nc2_parse_node_list(s, &e) < 0) {
		nc2_parse_strerror(&e, "node list", msg, sizeof(msg));
		return;
	}
	if (strcmp(body, "all") != 0 &&
	    (body[strspn(body, "0123456789,-")] || nc2_parse_list_numbers(s, 1023, &e) < 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	unsigned long long bytes;
	struct parse_err e;
	unsigned long v;
	unsigned mode;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check_weights(s);
	check_list_numbers(s);
	check_node_list(s);
	(void)nc2_parse_size(s, &bytes, &e);
	(void)nc2_parse_octal_mode(s, &mode, &e);
	if (nc2_parse_ulong(s, 255, &v) == 0 && v > 255)
		abort();
	free(s);
	return 0;
}
