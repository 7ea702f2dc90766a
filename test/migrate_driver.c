// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure parts of --pid --migrate, fed from the command line and stdin:
 *   migrate_driver plan MODE NODES [BATCH [BLOCK]]
 *       MODE: interleave, weighted, bind, preferred or preferred-many;
 *       NODES: "0:9,1:1" (weights) or "0,1". Stdin: the node each page is
 *       on, in address order (-1: not present). Prints each page's node
 *       ("to: 0 0 1 -"), then "moved: N" and where the pages are once
 *       moved ("after: N0=90 N1=10"). BATCH: pages per call (the round
 *       robin goes on from call to call). BLOCK: pages per block (a huge
 *       page's: they move together), 1 by default.
 *   migrate_driver policy MODE FLAGS NODES [own]
 *       the numa_maps text of that policy (FLAGS: 0, static, relative,
 *       balancing, static|balancing; "own": NODES' weights are its own).
 *   migrate_driver maps        stdin: /proc/PID/maps lines; prints the
 *                              ranges --migrate takes ("7f00-7f10").
 *   migrate_driver numamaps POLICY   stdin: numa_maps lines; prints
 *                              "START task|own|skip" for each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/migranges.h"
#include "policy/migplan.h"
#include "syscalls.h"

#define PAGES_MAX 100000

static int mode_arg(const char *s)
{
	static const struct { const char *name; int mode; } modes[] = {
		{ "interleave", MPOL_INTERLEAVE }, { "weighted", MPOL_WEIGHTED_INTERLEAVE },
		{ "bind", MPOL_BIND }, { "preferred", MPOL_PREFERRED },
		{ "preferred-many", MPOL_PREFERRED_MANY }, { "local", MPOL_LOCAL },
		{ "default", MPOL_DEFAULT },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(s, modes[i].name) == 0)
			return modes[i].mode;
	fprintf(stderr, "migrate_driver: unknown mode '%s'\n", s);
	exit(2);
}

/* "0:9,1:1" or "0,1": the nodes (ascending, as given) and weights. */
static unsigned nodes_arg(const char *s, int *node, unsigned *weight)
{
	unsigned n = 0;

	for (char *end; *s && n < PARSE_MAX_NODES; s = *end ? end + 1 : end) {
		node[n] = (int)strtoul(s, &end, 10);
		weight[n] = *end == ':' ? (unsigned)strtoul(end + 1, &end, 10) : 0;
		n++;
	}
	return n;
}

static int plan(int argc, char **argv)
{
	static int node[PARSE_MAX_NODES], now[PAGES_MAX], to[PAGES_MAX];
	static unsigned long block[PAGES_MAX];
	static unsigned weight[PARSE_MAX_NODES], after[PARSE_MAX_NODES];
	size_t pages = 0, batch = argc > 4 ? strtoul(argv[4], NULL, 10) : PAGES_MAX;
	size_t per_block = argc > 5 ? strtoul(argv[5], NULL, 10) : 1;
	unsigned long moved = 0;
	struct migplan p;
	unsigned n = nodes_arg(argv[3], node, weight);

	if (migplan_init(&p, mode_arg(argv[2]), node, weight, n) < 0) {
		printf("refused\n");
		return 1;
	}
	while (pages < PAGES_MAX && scanf("%d", &now[pages]) == 1) {
		block[pages] = pages / per_block;
		pages++;
	}
	for (size_t i = 0; i < pages; i += batch)
		migplan_targets(&p, now + i, block + i, to + i, pages - i < batch ? pages - i : batch);
	printf("to:");
	for (size_t i = 0; i < pages; i++) {
		printf(to[i] < 0 ? " -" : " %d", to[i]);
		moved += to[i] >= 0 && to[i] != now[i];
		if (to[i] >= 0 && to[i] < PARSE_MAX_NODES)
			after[to[i]]++;
	}
	printf("\nmoved: %lu\nafter:", moved);
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++)
		if (after[i])
			printf(" N%u=%u", i, after[i]);
	printf("\n");
	return 0;
}

static unsigned flags_arg(const char *s)
{
	unsigned f = 0;

	if (strstr(s, "static"))
		f |= MPOL_F_STATIC_NODES;
	if (strstr(s, "relative"))
		f |= MPOL_F_RELATIVE_NODES;
	if (strstr(s, "balancing"))
		f |= MPOL_F_NUMA_BALANCING;
	return f;
}

static int policy(int argc, char **argv)
{
	static int node[PARSE_MAX_NODES];
	static unsigned weight[PARSE_MAX_NODES];
	static uint8_t by_node[PARSE_MAX_NODES];
	struct mpol2_state s = {
		.mode = mode_arg(argv[2]), .mode_flags = flags_arg(argv[3]),
		.nodes = numa_bitmask_alloc(PARSE_MAX_NODES), .weight = by_node,
		.own_weights = argc > 5 && strcmp(argv[5], "own") == 0,
	};
	unsigned n = nodes_arg(argv[4], node, weight);
	char text[1024];
	int rc;

	for (unsigned i = 0; i < n; i++) {
		numa_bitmask_setbit(s.nodes, (unsigned)node[i]);
		by_node[node[i]] = (uint8_t)weight[i];
	}
	rc = migranges_policy_text(&s, text, sizeof(text));
	numa_bitmask_free(s.nodes);
	if (rc < 0)
		return 1;
	printf("%s\n", text);
	return 0;
}

static int lines(const char *policy_text)
{
	static const char verdict[][5] = { [MIG_SKIP] = "skip", [MIG_TASK] = "task", [MIG_OWN] = "own" };
	char *line = NULL;
	size_t size = 0;
	struct mig_range r;
	unsigned long start;

	while (getline(&line, &size, stdin) > 0) {
		if (!policy_text && migranges_maps_line(line, &r))
			printf("%lx-%lx\n", r.start, r.end);
		if (policy_text) {
			enum mig_line l = migranges_numamaps_line(line, policy_text, &start);

			printf("%lx %s\n", start, verdict[l]);
		}
	}
	free(line);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "plan") == 0)
		return plan(argc, argv);
	if (argc >= 5 && strcmp(argv[1], "policy") == 0)
		return policy(argc, argv);
	if (argc == 2 && strcmp(argv[1], "maps") == 0)
		return lines(NULL);
	if (argc == 3 && strcmp(argv[1], "numamaps") == 0)
		return lines(argv[2]);
	fprintf(stderr, "usage: migrate_driver plan MODE NODES [BATCH] | policy MODE FLAGS NODES [own] |"
		" maps | numamaps POLICY\n");
	return 2;
}
