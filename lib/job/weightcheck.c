// SPDX-License-Identifier: GPL-2.0-or-later
/* --report's check that the task-local weights were still in effect when
 * each process of the job ended: numa_maps' policy text, compared with
 * the weights asked for (abi16: " weights=N:W,..." for the nodes of the
 * policy's mask, after the policy string, only on a policy with weights
 * of its own). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/weightcheck.h"
#include "libnumactl2.h"
#include "syscalls.h"

#define WI_POLICY "weighted interleave"

void weights_check_init(struct weights_check *c, const struct policy *p)
{
	memset(c, 0, sizeof(*c));
	if (p->mode == MPOL_WEIGHTED_INTERLEAVE && p->has_weights && p->task_local)
		c->asked = p;
}

/* "0:3,1:1" (ended by a space or the end): each of p's nodes once, with
 * the weight asked for it, and no other node. */
static bool weights_match(const char *s, const struct policy *p)
{
	unsigned pairs = 0;

	for (;;) {
		char *end;
		unsigned long n = strtoul(s, &end, 10), w;

		if (end == s || *end != ':' || n >= p->nodes->size ||
		    !numa_bitmask_isbitset(p->nodes, (unsigned)n))
			return false;
		s = end + 1;
		w = strtoul(s, &end, 10);
		if (end == s || w != nc2_policy_weight(p, (unsigned)n))
			return false;
		pairs++;
		if (*end != ',')
			return (*end == ' ' || *end == '\n' || *end == '\0') &&
			       pairs == (unsigned)numa_bitmask_weight(p->nodes);
		s = end + 1;
	}
}

bool weights_line_kept(const char *line, const struct policy *p, char *seen, size_t len)
{
	const char *pol = strchr(line, ' '), *next;
	size_t n;

	if (!pol || strncmp(pol + 1, WI_POLICY, strlen(WI_POLICY)) != 0)
		return true;
	pol++;
	next = strchr(pol + strlen(WI_POLICY), ' ');
	if (next && strncmp(next + 1, "weights=", 8) == 0 && weights_match(next + 9, p))
		return true;
	if (next && strncmp(next + 1, "weights=", 8) == 0)
		next = strchr(next + 1, ' ');
	n = next ? (size_t)(next - pol) : strcspn(pol, "\n");
	snprintf(seen, len, "%.*s", (int)n, pol);
	return false;
}

int weights_check_process(struct weights_check *c, pid_t pid, pid_t tid)
{
	char path[64], *line = NULL;
	size_t size = 0;
	FILE *f;

	if (!c->asked || c->lost)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!c->lost && getline(&line, &size, f) > 0) {
		if (!weights_line_kept(line, c->asked, c->seen, sizeof(c->seen))) {
			c->lost = true;
			c->pid = pid;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

void weights_check_print_asked(FILE *f, const struct weights_check *c)
{
	const struct policy *p = c->asked;
	bool first = true;

	for (int n = nc2_nodes_first(p->nodes); n >= 0; n = nc2_nodes_next(p->nodes, (unsigned)n + 1)) {
		fprintf(f, "%s%d:%u", first ? "" : ",", n, nc2_policy_weight(p, (unsigned)n));
		first = false;
	}
}
