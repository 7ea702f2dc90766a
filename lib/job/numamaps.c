// SPDX-License-Identifier: GPL-2.0-or-later
/* numa_maps, one line per mapping (mm/mempolicy.c show_numa_map):
 *   START POLICY [weights=N:W,...] [file=PATH|heap|stack] [huge] [anon=N] ...
 *   N<node>=<pages> ... kernelpagesize_kB=<kB>
 * The policy may hold a space ("weighted interleave:0-3"), so a line is read
 * as tokens and only the ones that name what is counted are looked at.
 * weights= (the kernel series, kernel/) follows a policy that has weights
 * of its own. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/numamaps.h"

const char *map_kind_name(enum map_kind k)
{
	static const char *const names[MAP_KINDS] = { "heap", "anon", "file" };

	return names[k];
}

unsigned long long placement_pages(const struct placement *p, enum map_kind k, unsigned n)
{
	return n < p->nodes ? p->pages[k][n] : 0;
}

void placement_free(struct placement *p)
{
	for (enum map_kind k = 0; k < MAP_KINDS; k++)
		free(p->pages[k]);
	for (unsigned i = 0; i < p->n_weights; i++)
		free(p->weights[i].text);
	free(p->weights);
	memset(p, 0, sizeof(*p));
}

/* Room for node n in each kind's counts, the new ones zero. */
static int make_room(struct placement *p, unsigned long n)
{
	if (n < p->nodes)
		return 0;
	for (enum map_kind k = 0; k < MAP_KINDS; k++) {
		unsigned long long *grown = realloc(p->pages[k], (n + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		memset(grown + p->nodes, 0, (n + 1 - p->nodes) * sizeof(*grown));
		p->pages[k] = grown;
	}
	p->nodes = (unsigned)n + 1;
	return 0;
}

int placement_add(struct placement *to, const struct placement *from)
{
	if (from->nodes && make_room(to, from->nodes - 1) < 0)
		return -ENOMEM;
	for (enum map_kind k = 0; k < MAP_KINDS; k++) {
		for (unsigned n = 0; n < from->nodes; n++)
			to->pages[k][n] += from->pages[k][n];
		to->total[k] += from->total[k];
	}
	if (from->max_node > to->max_node)
		to->max_node = from->max_node;
	return 0;
}

/* "N12=345": node 12, 345 pages. */
static bool node_token(const char *t, unsigned long *node, unsigned long long *pages)
{
	char *end;

	if (t[0] != 'N' || t[1] < '0' || t[1] > '9')
		return false;
	errno = 0;
	*node = strtoul(t + 1, &end, 10);
	if (errno || *end != '=' || end[1] < '0' || end[1] > '9')
		return false;
	*pages = strtoull(end + 1, &end, 10);
	return !errno && *end == '\0';
}

/* Keeps W among p's distinct weights; 0 or -ENOMEM. */
static int add_weights(struct placement *p, bool own, const char *text)
{
	struct map_weights *grown;
	char *copy;

	for (unsigned i = 0; i < p->n_weights; i++)
		if (p->weights[i].own == own && strcmp(p->weights[i].text, text) == 0)
			return 0;
	grown = realloc(p->weights, (p->n_weights + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->weights = grown;
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	p->weights[p->n_weights++] = (struct map_weights){ own, copy };
	return 0;
}

/* A weighted-interleave policy is the tokens "weighted" and
 * "interleave[=FLAGS]:NODES"; weights= may follow. What the line's policy
 * uses, kept in p. */
static int add_line_weights(struct placement *p, const char *policy, const char *own)
{
	const char *nodes = strrchr(policy, ':');

	if (own)
		return add_weights(p, true, own);
	return nodes ? add_weights(p, false, nodes + 1) : 0;
}

/* The kind of mapping comes before the counts, so each count is added as
 * it is read; the page size comes after them, so it is looked up first. */
int numamaps_add_line(struct placement *p, char *line, unsigned long page_kb)
{
	const char *kb = strstr(line, " kernelpagesize_kB=");
	unsigned long long mult = kb ? strtoull(kb + 19, NULL, 10) / page_kb : 1;
	enum map_kind kind = MAP_ANON;
	const char *wi = NULL, *own = NULL;	/* weighted interleave, its weights= */
	char *save = NULL, *prev = NULL;
	char *t = strtok_r(line, " \n", &save);

	if (!t || strspn(t, "0123456789abcdef") != strlen(t) || mult == 0)
		return -EINVAL;
	for (; (t = strtok_r(NULL, " \n", &save)); prev = t) {
		unsigned long node;
		unsigned long long pages;

		if (prev && strcmp(prev, "weighted") == 0 && strncmp(t, "interleave", 10) == 0)
			wi = t;
		else if (wi && prev == wi && strncmp(t, "weights=", 8) == 0)
			own = t + 8;
		if (strncmp(t, "file=", 5) == 0)
			kind = MAP_FILE;
		else if (strcmp(t, "heap") == 0)
			kind = MAP_HEAP;
		if (!node_token(t, &node, &pages))
			continue;
		if (node >= PARSE_MAX_NODES)
			return -EINVAL;
		if (make_room(p, node) < 0)
			return -ENOMEM;
		p->pages[kind][node] += pages * mult;
		p->total[kind] += pages * mult;
		if (node > p->max_node)
			p->max_node = (unsigned)node;
	}
	return wi ? add_line_weights(p, wi, own) : 0;
}

int numamaps_read(pid_t pid, struct placement *p)
{
	unsigned long page_kb = (unsigned long)sysconf(_SC_PAGESIZE) / 1024;
	char path[64], *line = NULL;
	size_t size = 0;
	int rc = 0;
	FILE *f;

	placement_free(p);
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (rc == 0 && getline(&line, &size, f) > 0)
		rc = numamaps_add_line(p, line, page_kb);
	if (ferror(f))
		rc = -EIO;
	free(line);
	fclose(f);
	return rc;
}
