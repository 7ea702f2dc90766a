// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid --migrate: the ranges of a process whose pages are moved,
 * from /proc/PID/maps (which mappings are private and anonymous, and where
 * they end) joined by start address with /proc/PID/numa_maps (whose policy
 * each follows, and whether it holds pages). numa_maps prints a mapping
 * without a policy of its own with the task's policy, so a mapping that
 * prints another one was given its own by mbind: its pages are its
 * policy's business, not the task's. A mapping with the same policy as the
 * task cannot be told from one without: both are moved. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/migranges.h"
#include "libnumactl2.h"
#include "syscalls.h"

static bool anonymous_name(const char *name)
{
	return name[0] == '\0' || strcmp(name, "[heap]") == 0 || strcmp(name, "[stack]") == 0 ||
	       strncmp(name, "[anon:", 6) == 0;
}

bool migranges_maps_line(const char *line, struct mig_range *r)
{
	char perms[5], name[32];
	unsigned long inode;
	int at = -1;

	if (sscanf(line, "%lx-%lx %4s %*x %*x:%*x %lu %n", &r->start, &r->end, perms,
		   &inode, &at) != 4 || at < 0 || strlen(perms) != 4)
		return false;
	/* Longer names are files (inode 0 for some) or names of no interest. */
	if (strcspn(line + at, "\n") >= sizeof(name))
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(line + at, "\n"), line + at);
	return perms[3] == 'p' && inode == 0 && r->start < r->end && anonymous_name(name);
}

/* Text appended to a buffer; full once something did not fit. */
struct text {
	char *buf;
	size_t len, at;
	bool full;
};

static void __attribute__((format(printf, 2, 3))) put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->at, t->len - t->at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->len - t->at)
		t->full = true;
	else
		t->at += (size_t)n;
}

/* The kernel's policy_modes[] names. */
static const char *mode_text(int mode)
{
	switch (mode) {
	case MPOL_PREFERRED: return "prefer";
	case MPOL_BIND: return "bind";
	case MPOL_INTERLEAVE: return "interleave";
	case MPOL_WEIGHTED_INTERLEAVE: return "weighted interleave";
	case MPOL_LOCAL: return "local";
	case MPOL_PREFERRED_MANY: return "prefer (many)";
	default: return "default";
	}
}

/* mpol_to_str's "=static|balancing". */
static void put_flags(struct text *t, unsigned flags)
{
	bool node_flag = flags & (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES);

	if (!(flags & MPOL_MODE_FLAGS))
		return;
	put(t, "=");
	if (flags & MPOL_F_STATIC_NODES)
		put(t, "static");
	else if (flags & MPOL_F_RELATIVE_NODES)
		put(t, "relative");
	if (flags & MPOL_F_NUMA_BALANCING)
		put(t, "%sbalancing", node_flag ? "|" : "");
}

/* ":0-2,5", the kernel's %pbl. */
static void put_nodes(struct text *t, const struct bitmask *nodes)
{
	const char *sep = ":";

	for (int n = nc2_nodes_first(nodes); n >= 0;) {
		int last = n;

		while (nc2_nodes_next(nodes, (unsigned)last + 1) == last + 1)
			last++;
		if (last > n)
			put(t, "%s%d-%d", sep, n, last);
		else
			put(t, "%s%d", sep, n);
		sep = ",";
		n = nc2_nodes_next(nodes, (unsigned)last + 1);
	}
}

/* show_numa_map()'s buffer for mpol_to_str(): what is longer is cut. */
#define MPOL_TEXT_MAX 64

int migranges_policy_text(const struct mpol2_state *s, char *buf, size_t len)
{
	char mpol[MPOL_TEXT_MAX];
	struct text m = { .buf = mpol, .len = sizeof(mpol) };
	struct text t = { .buf = buf, .len = len };
	const char *sep = " weights=";

	put(&m, "%s", mode_text(s->mode));
	put_flags(&m, s->mode_flags);
	if (s->mode != MPOL_DEFAULT && s->mode != MPOL_LOCAL)
		put_nodes(&m, s->nodes);
	put(&t, "%s", mpol);
	for (int n = s->own_weights ? nc2_nodes_first(s->nodes) : -1; n >= 0;
	     n = nc2_nodes_next(s->nodes, (unsigned)n + 1)) {
		put(&t, "%s%d:%u", sep, n, s->weight[n]);
		sep = ",";
	}
	return t.full ? -ENAMETOOLONG : 0;
}

/* A token "N<node>=<pages>" in the rest of a numa_maps line. */
static bool has_pages(const char *rest)
{
	for (const char *t = strstr(rest, " N"); t; t = strstr(t + 1, " N")) {
		const char *c = t + 2;

		while (isdigit((unsigned char)*c))
			c++;
		if (c > t + 2 && *c == '=')
			return true;
	}
	return false;
}

enum mig_line migranges_numamaps_line(const char *line, const char *policy, unsigned long *start)
{
	size_t len = strlen(policy);
	char *end;

	errno = 0;
	*start = strtoul(line, &end, 16);
	if (errno || end == line || *end != ' ' || !has_pages(end))
		return MIG_SKIP;
	line = end + 1;
	if (strncmp(line, policy, len) != 0 || (line[len] != ' ' && line[len] != '\n' && line[len]) ||
	    strncmp(line + len, " weights=", 9) == 0)
		return MIG_OWN;
	return MIG_TASK;
}

/* numa_maps' word on each mapping that holds pages, by start, ascending. */
struct verdicts {
	struct verdict {
		unsigned long start;
		enum mig_line line;
	} *v;
	unsigned n, cap;
	char policy[512];
};

/* ARRAY with room for entry N of SIZE bytes (CAP of them), or NULL. */
static void *grow(void *array, unsigned *cap, unsigned n, size_t size)
{
	void *p;

	if (n < *cap)
		return array;
	p = realloc(array, (*cap * 2 + 16) * size);
	if (p)
		*cap = *cap * 2 + 16;
	return p;
}

static int add_verdict(const char *line, void *arg)
{
	struct verdicts *vs = arg;
	unsigned long start;
	enum mig_line l = migranges_numamaps_line(line, vs->policy, &start);

	struct verdict *v;

	if (l == MIG_SKIP)
		return 0;
	v = grow(vs->v, &vs->cap, vs->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	vs->v = v;
	v[vs->n++] = (struct verdict){ start, l };
	return 0;
}

/* Joining maps to numa_maps: both list the mappings in address order. */
struct join {
	const struct verdicts *vs;
	unsigned at;
	struct mig_ranges *out;
	unsigned cap;
	bool taken;		/* the mapping of the last maps line is out's last */
};

/* smaps' "AnonHugePages:  2048 kB" of a mapping taken. */
static void note_huge(struct join *j, const char *line)
{
	unsigned long kb;

	if (j->taken && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
		j->out->r[j->out->n - 1].huge = kb > 0;
}

static int add_range(const char *line, void *arg)
{
	struct join *j = arg;
	struct mig_range r = { 0 }, *grown;
	unsigned long start, end;

	if (sscanf(line, "%lx-%lx ", &start, &end) != 2) {	/* "Key: value" of the last one */
		note_huge(j, line);
		return 0;
	}
	j->taken = false;
	if (!migranges_maps_line(line, &r))
		return 0;
	while (j->at < j->vs->n && j->vs->v[j->at].start < r.start)
		j->at++;
	if (j->at == j->vs->n || j->vs->v[j->at].start != r.start)
		return 0;
	if (j->vs->v[j->at].line == MIG_OWN) {
		j->out->own_policy++;
		return 0;
	}
	grown = grow(j->out->r, &j->cap, j->out->n, sizeof(r));
	if (!grown)
		return -ENOMEM;
	j->out->r = grown;
	grown[j->out->n++] = r;
	j->taken = true;
	return 0;
}

static int read_lines(pid_t pid, const char *file, int (*fn)(const char *, void *), void *arg)
{
	char path[64], *line = NULL;
	size_t size = 0;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	errno = 0;
	while (rc == 0 && getline(&line, &size, f) > 0)
		rc = fn(line, arg);
	if (rc == 0 && ferror(f))
		rc = errno ? -errno : -EIO;
	free(line);
	fclose(f);
	return rc;
}

int migranges_read(pid_t pid, const struct mpol2_state *task, struct mig_ranges *out)
{
	struct verdicts vs = { 0 };
	struct join j = { .vs = &vs, .out = out };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = migranges_policy_text(task, vs.policy, sizeof(vs.policy));
	if (rc == 0)
		rc = read_lines(pid, "numa_maps", add_verdict, &vs);
	if (rc == 0)
		rc = read_lines(pid, "smaps", add_range, &j);
	free(vs.v);
	if (rc < 0)
		migranges_free(out);
	return rc;
}

void migranges_free(struct mig_ranges *r)
{
	free(r->r);
	memset(r, 0, sizeof(*r));
}
