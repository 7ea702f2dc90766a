/* libFuzzer target for the pure parsers: no crash, no undefined behaviour,
 * and a weight list that parses describes itself consistently. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_weights(const char *s)
{
	static struct weight_list wl;
	struct parse_err e;
	unsigned named = 0;
	char msg[200];

	if (parse_weight_list(s, &wl, &e) < 0) {
		parse_strerror(&e, "weight list", msg, sizeof(msg));
		return;
	}
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++) {
		if (wl.weight[n] && n > wl.max_node)
			abort();
		named += wl.weight[n] != 0;
	}
	if (named != wl.count || named == 0)
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
	(void)parse_size(s, &bytes, &e);
	(void)parse_octal_mode(s, &mode, &e);
	if (parse_ulong(s, 255, &v) == 0 && v > 255)
		abort();
	free(s);
	return 0;
}
