// SPDX-License-Identifier: GPL-2.0-or-later
/* Feeds numa_maps lines (stdin) to numamaps_add_line() and prints the sums,
 * one line per kind: "heap N0=3 N2=5", then one line per distinct weights of
 * the weighted-interleave mappings: "weights own 0:8,1:4" (numa_maps'
 * weights=) or "weights global 0-3" (the policy's nodes); or "error: line
 * N" (exit 1).
 *   numamaps_driver [BASE_PAGE_KB]   (default 4) */
#include <stdio.h>
#include <stdlib.h>

#include "job/numamaps.h"

int main(int argc, char **argv)
{
	static struct placement p;
	unsigned long page_kb = argc > 1 ? strtoul(argv[1], NULL, 10) : 4;
	char *line = NULL;
	size_t size = 0;
	unsigned no = 0;

	while (getline(&line, &size, stdin) > 0) {
		no++;
		if (numamaps_add_line(&p, line, page_kb) < 0) {
			printf("error: line %u\n", no);
			free(line);
			placement_free(&p);
			return 1;
		}
	}
	free(line);
	for (enum map_kind k = 0; k < MAP_KINDS; k++) {
		printf("%s", map_kind_name(k));
		for (unsigned n = 0; n <= p.max_node; n++)
			if (placement_pages(&p, k, n))
				printf(" N%u=%llu", n, placement_pages(&p, k, n));
		printf(" total=%llu\n", p.total[k]);
	}
	for (unsigned i = 0; i < p.n_weights; i++)
		printf("weights %s %s\n", p.weights[i].own ? "own" : "global", p.weights[i].text);
	placement_free(&p);
	return 0;
}
