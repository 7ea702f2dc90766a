/* --report: one table (or one json object) per run, on stderr or in the
 * --report-file. Stdout is the job's: scripts pipe it, and a report there
 * would corrupt what they read.
 *
 * json schema, version 1 (documented in README.md and man/numactl2.h2m):
 *   { "version": 1, "command": STR, "pid": INT,
 *     "exit": { "status": INT|null, "signal": INT|null },
 *     "policy": STR, "page_size": INT,
 *     "nodes": [ { "node": INT, "requested_share": NUM|null,
 *                  "heap": { "pages": INT, "share": NUM|null },
 *                  "anon": { ... }, "file": { ... } }, ... ],
 *     "total": { "heap": INT, "anon": INT, "file": INT } }
 * Pages are base pages of page_size bytes; shares are fractions of the
 * kind's total (null when it has no pages, or the policy asks for none). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "weights/table.h"
#include "job/numamaps.h"
#include "job/report.h"
#include "syscalls.h"

int report_open(struct report *r)
{
	int fd;

	if (!r->path)
		return 0;
	fd = open(r->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	r->out = fdopen(fd, "w");
	if (!r->out) {
		close(fd);
		return -errno;
	}
	return 0;
}

/* What the policy asks of each of the n nodes in share: interleave evenly,
 * weighted interleave by weight (the run's own, or the global ones in
 * effect). Other policies ask for no share, and false says so. */
static bool requested_shares(const struct policy *p, double *share, unsigned n_share)
{
	unsigned end = p->nodes && p->nodes->size < n_share ? p->nodes->size : n_share;
	double sum = 0;

	if (p->mode != MPOL_INTERLEAVE && p->mode != MPOL_WEIGHTED_INTERLEAVE)
		return false;
	for (unsigned n = 0; n < end; n++) {
		unsigned w = 0;

		if (!numa_bitmask_isbitset(p->nodes, n))
			continue;
		if (p->mode == MPOL_WEIGHTED_INTERLEAVE && p->has_weights)
			w = p->weight[n];
		else if (p->mode == MPOL_WEIGHTED_INTERLEAVE && gw_read(n, &w) < 0)
			w = 0;
		share[n] = weight_effective(w);	/* 0: not given */
		sum += share[n];
	}
	for (unsigned n = 0; n < end; n++)
		share[n] /= sum;
	return true;
}

/* The nodes a report lists: every node there is, and any that holds pages. */
static bool listed(const struct placement *pl, unsigned n)
{
	return (int)n <= numa_max_node() ? numa_bitmask_isbitset(numa_nodes_ptr, n) :
		n <= pl->max_node;
}

static unsigned last_node(const struct placement *pl)
{
	unsigned max = (unsigned)numa_max_node();

	return pl->max_node > max ? pl->max_node : max;
}

struct view {
	const char *name;
	pid_t pid;
	int exit_status;
	int mode;
	bool has_req;
	double *req;		/* for each node up to last_node() */
	struct placement pl;
};

static void exit_text(int st, char *buf, size_t size)
{
	if (WIFSIGNALED(st))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(st));
	else
		snprintf(buf, size, "exit status %d", WEXITSTATUS(st));
}

static void print_table_cell(FILE *f, const struct view *v, enum map_kind k, unsigned n)
{
	unsigned long long pages = placement_pages(&v->pl, k, n);

	if (v->pl.total[k])
		fprintf(f, " %10llu %6.1f%%", pages, 100.0 * (double)pages / (double)v->pl.total[k]);
	else
		fprintf(f, " %10llu %7s", pages, "-");
}

static void print_table(FILE *f, const struct view *v)
{
	char ex[64];

	exit_text(v->exit_status, ex, sizeof(ex));
	fprintf(f, "numactl2: report: %s (pid %d), %s; policy %s; pages of %ld KiB\n",
		v->name, (int)v->pid, ex, policy_name(v->mode), sysconf(_SC_PAGESIZE) / 1024);
	fprintf(f, "node requested %10s %7s %10s %7s %10s %7s\n",
		"heap", "share", "anon", "share", "file", "share");
	for (unsigned n = 0; n <= last_node(&v->pl); n++) {
		if (!listed(&v->pl, n))
			continue;
		if (v->has_req)
			fprintf(f, "%4u %8.1f%%", n, 100.0 * v->req[n]);
		else
			fprintf(f, "%4u %9s", n, "-");
		for (enum map_kind k = 0; k < MAP_KINDS; k++)
			print_table_cell(f, v, k, n);
		fputc('\n', f);
	}
	fprintf(f, "%-14s %10llu %7s %10llu %7s %10llu\n", "total", v->pl.total[MAP_HEAP], "",
		v->pl.total[MAP_ANON], "", v->pl.total[MAP_FILE]);
}

static void print_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void print_json_share(FILE *f, bool known, double share)
{
	if (known)
		fprintf(f, "%.6f", share);
	else
		fputs("null", f);
}

static void print_json_node(FILE *f, const struct view *v, unsigned n)
{
	fprintf(f, "{\"node\": %u, \"requested_share\": ", n);
	print_json_share(f, v->has_req, v->has_req ? v->req[n] : 0);
	for (enum map_kind k = 0; k < MAP_KINDS; k++) {
		unsigned long long pages = placement_pages(&v->pl, k, n), total = v->pl.total[k];

		fprintf(f, ", \"%s\": {\"pages\": %llu, \"share\": ", map_kind_name(k), pages);
		print_json_share(f, total > 0, total ? (double)pages / (double)total : 0);
		fputc('}', f);
	}
	fputc('}', f);
}

static void print_json(FILE *f, const struct view *v)
{
	bool first = true;

	fputs("{\"version\": 1, \"command\": ", f);
	print_json_string(f, v->name);
	fprintf(f, ", \"pid\": %d, \"exit\": ", (int)v->pid);
	if (WIFSIGNALED(v->exit_status))
		fprintf(f, "{\"status\": null, \"signal\": %d}", WTERMSIG(v->exit_status));
	else
		fprintf(f, "{\"status\": %d, \"signal\": null}", WEXITSTATUS(v->exit_status));
	fputs(", \"policy\": ", f);
	print_json_string(f, policy_name(v->mode));
	fprintf(f, ", \"page_size\": %ld, \"nodes\": [", sysconf(_SC_PAGESIZE));
	for (unsigned n = 0; n <= last_node(&v->pl); n++) {
		if (!listed(&v->pl, n))
			continue;
		fputs(first ? "" : ", ", f);
		print_json_node(f, v, n);
		first = false;
	}
	fprintf(f, "], \"total\": {\"heap\": %llu, \"anon\": %llu, \"file\": %llu}}\n",
		v->pl.total[MAP_HEAP], v->pl.total[MAP_ANON], v->pl.total[MAP_FILE]);
}

/* The job's pages (numamaps.c) and its policy's shares, for the printers. */
static int read_view(struct view *v, const struct report *r, pid_t pid, int exit_status)
{
	int rc;

	v->name = r->command[0];
	v->pid = pid;
	v->exit_status = exit_status;
	v->mode = r->policy->mode == POLICY_NONE ? MPOL_DEFAULT : r->policy->mode;
	rc = numamaps_read(pid, &v->pl);
	if (rc < 0)
		return rc;
	v->req = calloc(last_node(&v->pl) + 1, sizeof(*v->req));
	if (!v->req)
		return -ENOMEM;
	v->has_req = requested_shares(r->policy, v->req, last_node(&v->pl) + 1);
	return 0;
}

/* Failures are kept in r for the front end: a report that cannot be made
 * must not stop the job's exit. */
void report_print_at_exit(pid_t pid, int exit_status, void *arg)
{
	struct view v = { 0 };
	struct report *r = arg;
	int rc;

	r->seen = true;
	r->pid = pid;
	rc = read_view(&v, r, pid, exit_status);
	if (rc < 0) {
		r->read_errno = -rc;
	} else {
		if (r->format == REPORT_JSON)
			print_json(r->out, &v);
		else
			print_table(r->out, &v);
		if (fflush(r->out) != 0)
			r->write_errno = errno;
	}
	free(v.req);
	placement_free(&v.pl);
}

int report_close(struct report *r)
{
	if (r->path && fclose(r->out) != 0)
		return -errno;
	return 0;
}
