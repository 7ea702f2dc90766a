// SPDX-License-Identifier: GPL-2.0-or-later
/* Feeds one input to one parser in parse.c and prints the result, so that
 * bats can check good and bad inputs against expected output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static int fail(const struct parse_err *e, const char *what)
{
	char msg[200];

	nc2_parse_strerror(e, what, msg, sizeof(msg));
	fprintf(stderr, "error: %s\n", msg);
	return 1;
}

static int weights(const char *s)
{
	static struct weight_list wl;
	struct parse_err e;

	if (nc2_parse_weight_list(s, &wl, &e) < 0)
		return fail(&e, "weight list");
	for (unsigned n = 0, first = 1; n <= wl.max_node; n++) {
		if (!wl.weight[n])
			continue;
		printf("%s%u:%u", first ? "" : " ", n, wl.weight[n]);
		first = 0;
	}
	printf("\n");
	nc2_weight_list_free(&wl);
	return 0;
}

int main(int argc, char **argv)
{
	struct parse_err e;
	unsigned long long size;
	unsigned long v;
	unsigned mode;

	if (argc == 3 && strcmp(argv[1], "weights") == 0)
		return weights(argv[2]);
	if (argc == 3 && strcmp(argv[1], "size") == 0) {
		if (nc2_parse_size(argv[2], &size, &e) < 0)
			return fail(&e, "length");
		printf("%llu\n", size);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "nodes") == 0) {
		if (nc2_parse_node_list(argv[2], &e) < 0)
			return fail(&e, "node list");
		printf("ok\n");
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "mode") == 0) {
		if (nc2_parse_octal_mode(argv[2], &mode, &e) < 0)
			return fail(&e, "mode");
		printf("%04o\n", mode);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "ulong") == 0) {
		int rc = nc2_parse_ulong(argv[2], strtoul(argv[3], NULL, 10), &v);

		if (rc < 0) {
			fprintf(stderr, "error: %s\n", strerror(-rc));
			return 1;
		}
		printf("%lu\n", v);
		return 0;
	}
	fprintf(stderr, "usage: parse_driver weights|nodes|size|mode STR | ulong STR MAX\n");
	return 2;
}
