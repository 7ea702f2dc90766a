// SPDX-License-Identifier: GPL-2.0-or-later
/* --report: one table (or one json object) per run, on stderr or in the
 * --report-file. Stdout is the job's: scripts pipe it, and a report there
 * would corrupt what they read.
 *
 * json schema, version 1 (documented in README.md and man/numactl2.h2m;
 * "processes" was added within it, as the schema allows):
 *   { "version": 1, "command": STR, "pid": INT,
 *     "exit": { "status": INT|null, "signal": INT|null },
 *     "policy": STR, "page_size": INT,
 *     "nodes": [ { "node": INT, "requested_share": NUM|null,
 *                  "heap": { "pages": INT, "share": NUM|null },
 *                  "anon": { ... }, "file": { ... } }, ... ],
 *     "total": { "heap": INT, "anon": INT, "file": INT },
 *     "processes": { "reported": INT, "running": INT,
 *                    "largest": [ { "pid": INT, "name": STR, "pages": INT,
 *                                   "heap": INT, "anon": INT, "file": INT,
 *                                   "weights": STR|null } ] },
 *     "task_weights": { "asked": STR, "kept": BOOL, "pid": INT|null,
 *                       "policy": STR|null } | null,
 *     "counted": { "own": "exit"|"sample", "started": "numa_maps sampled",
 *                  "started_processes": INT, "sample_period_ms": INT },
 *     "sampled": BOOL }
 * Pages are base pages of page_size bytes, summed over the job's processes;
 * shares are fractions of the kind's total (null when it has no pages, or
 * the policy asks for none). "weights" (added within version 1) are the
 * weights a process' weighted-interleave mappings use: a policy's own
 * (numa_maps' weights=, kernel series) as "0:8,1:4 (own)", else the global
 * table's for its nodes as "0:1,1:1 (global)", "; " between distinct ones;
 * null when it has no such mapping. "task_weights" (added within version 1)
 * is null unless numactl2 set task-local weights: then whether every
 * process kept them to its end, and if not the first that did not, with its
 * policy as numa_maps shows it. "processes" (issue 23) is the job's own
 * process and, since issue 37, every process it started (its descendants,
 * never traced: their last sample, jobtree.h), "running" its children left
 * running; "counted" (added within version 1) says how each was read and
 * how far apart the samples were; "sampled" (added
 * within version 1) is true when the pages are the last sample of a job
 * that could not be traced, whose exit may then be unknown (both null).
 * Strings are valid UTF-8: a byte that is not is written as U+FFFD, and
 * control characters (C0, DEL, C1) as JSON's \u escapes (textesc.c). In
 * the table, a name or path the job chose has its control characters and
 * stray bytes escaped as \xNN, as systemd escapes a unit's name. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error/error.h"
#include "weights/table.h"
#include "job/numamaps.h"
#include "job/procstat.h"
#include "job/report.h"
#include "job/reportfile.h"
#include "job/textesc.h"
#include "syscalls.h"

static int open_file(struct report *r)
{
	int fd;

	if (!r->path)
		return 0;
	fd = report_file_open(r->path);
	if (fd < 0)
		return fd;
	r->out = fdopen(fd, "w");
	if (!r->out) {
		close(fd);
		return -errno;
	}
	return 0;
}

/* report_file_open()'s refusals, each its fault; another -errno the
 * system's (REPORT_OPEN). */
static int open_failed(const struct report_opts *o, int rc, struct nc2_error *e)
{
	static const struct { int rc; enum nc2_fault fault; } refusals[] = {
		{ -ELOOP, REPORT_SYMLINK }, { -EXDEV, REPORT_KERNEL_FS },
		{ -EINVAL, REPORT_NOT_REGULAR }, { -EMLINK, REPORT_LINKS },
		{ -EPERM, REPORT_NOT_OWN },
	};

	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		if (rc == refusals[i].rc)
			return error_set_name(e, refusals[i].fault, 0, o->path);
	return error_set_name(e, REPORT_OPEN, rc, o->path);
}

int nc2_report_open(const struct report_opts *o, struct report **rp, struct nc2_error *e)
{
	struct report *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return open_failed(o, -ENOMEM, e);
	r->format = o->format;
	r->path = o->path;
	r->out = o->out;
	r->policy = o->policy;
	r->command = o->command;
	weights_check_init(&r->weights, r->policy);
	rc = open_file(r);
	if (rc < 0) {
		free(r);
		return open_failed(o, rc, e);
	}
	*rp = r;
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
			w = nc2_policy_weight(p, n);
		else if (p->mode == MPOL_WEIGHTED_INTERLEAVE && gw_read(n, &w) < 0)
			w = 0;
		share[n] = nc2_weight_effective(w);	/* 0: not given */
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
	const struct report *r;
	const struct placement *pl;	/* r's */
	bool status_known;
	int exit_status;
	bool sampled;
	unsigned running;
	int mode;
	bool has_req;
	double *req;		/* for each node up to last_node() */
};

static void exit_text(const struct view *v, char *buf, size_t size)
{
	int st = v->exit_status;

	if (!v->status_known)
		snprintf(buf, size, "exit status unknown (not traced)");
	else if (WIFSIGNALED(st))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(st));
	else
		snprintf(buf, size, "exit status %d", WEXITSTATUS(st));
}

static void print_table_cell(FILE *f, const struct view *v, enum map_kind k, unsigned n)
{
	unsigned long long pages = placement_pages(v->pl, k, n);

	if (v->pl->total[k])
		fprintf(f, " %10llu %6.1f%%", pages, 100.0 * (double)pages / (double)v->pl->total[k]);
	else
		fprintf(f, " %10llu %7s", pages, "-");
}

/* After the node table, so that what reads its lines reads them still. */
static void print_table_processes(FILE *f, const struct view *v)
{
	const struct report *r = v->r;

	fprintf(f, "processes: %u reported (the job's own and %u it started), "
		"%u it started left running; the largest:\n", r->processes, r->started_counted,
		v->running);
	for (unsigned i = 0; i < r->n_largest; i++) {
		const struct report_process *p = &r->largest[i];

		fprintf(f, "  pid %d (", (int)p->pid);
		text_print_escaped(f, p->name);
		fprintf(f, "): %llu pages, heap %llu, anon %llu, file %llu\n", p->total,
			p->pages[MAP_HEAP], p->pages[MAP_ANON], p->pages[MAP_FILE]);
		if (p->weights)
			fprintf(f, "    weights: %s\n", p->weights);
	}
}

/* Only when the weights asked for were not the ones in effect. */
static void print_table_weights(FILE *f, const struct weights_check *c)
{
	if (!c->lost)
		return;
	fputs("weights: asked ", f);
	weights_check_print_asked(f, c);
	fprintf(f, " (task-local), not in effect at the end: pid %d has ", (int)c->pid);
	text_print_escaped(f, c->seen);
	fprintf(f, "%s\n", strstr(c->seen, "weights=") ? "" : " (no weights of its own: the global table's)");
}

static void print_table(FILE *f, const struct view *v)
{
	char ex[64];

	exit_text(v, ex, sizeof(ex));
	fputs("numactl2: report: ", f);
	text_print_escaped(f, v->r->command[0]);
	fprintf(f, " (pid %d), %s; policy %s; pages of %ld KiB\n", (int)v->r->pid, ex,
		nc2_policy_name(v->mode).s, sysconf(_SC_PAGESIZE) / 1024);
	fprintf(f, "node requested %10s %7s %10s %7s %10s %7s\n",
		"heap", "share", "anon", "share", "file", "share");
	for (unsigned n = 0; n <= last_node(v->pl); n++) {
		if (!listed(v->pl, n))
			continue;
		if (v->has_req)
			fprintf(f, "%4u %8.1f%%", n, 100.0 * v->req[n]);
		else
			fprintf(f, "%4u %9s", n, "-");
		for (enum map_kind k = 0; k < MAP_KINDS; k++)
			print_table_cell(f, v, k, n);
		fputc('\n', f);
	}
	fprintf(f, "%-14s %10llu %7s %10llu %7s %10llu\n", "total", v->pl->total[MAP_HEAP], "",
		v->pl->total[MAP_ANON], "", v->pl->total[MAP_FILE]);
	print_table_processes(f, v);
	print_table_weights(f, &v->r->weights);
	fprintf(f, "counted: the job's own process %s; what it started, from the last of "
		"samples of numa_maps at most %d ms apart (not traced): a process that lived "
		"less than %d ms may be missed, and pages processes share count in each\n",
		v->sampled ? "at its last sample" : "at its end (traced)", SUPERVISE_SAMPLE_MS,
		SUPERVISE_SAMPLE_MS);
	if (v->sampled)
		fputs("pages: the last sample of numa_maps while the job ran (the job is not "
		      "traced: LeakSanitizer, or an exec that gains privilege; its pages are not "
		      "read at its end)\n", f);
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
		unsigned long long pages = placement_pages(v->pl, k, n), total = v->pl->total[k];

		fprintf(f, ", \"%s\": {\"pages\": %llu, \"share\": ", map_kind_name(k), pages);
		print_json_share(f, total > 0, total ? (double)pages / (double)total : 0);
		fputc('}', f);
	}
	fputc('}', f);
}

static void print_json_processes(FILE *f, const struct view *v)
{
	const struct report *r = v->r;

	fprintf(f, ", \"processes\": {\"reported\": %u, \"running\": %u, \"largest\": [",
		r->processes, v->running);
	for (unsigned i = 0; i < r->n_largest; i++) {
		const struct report_process *p = &r->largest[i];

		fprintf(f, "%s{\"pid\": %d, \"name\": ", i ? ", " : "", (int)p->pid);
		text_print_json(f, p->name);
		fprintf(f, ", \"pages\": %llu, \"heap\": %llu, \"anon\": %llu, \"file\": %llu, \"weights\": ",
			p->total, p->pages[MAP_HEAP], p->pages[MAP_ANON], p->pages[MAP_FILE]);
		if (p->weights)
			text_print_json(f, p->weights);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void print_json_weights(FILE *f, const struct weights_check *c)
{
	fputs(", \"task_weights\": ", f);
	if (!c->asked) {
		fputs("null", f);
		return;
	}
	fputs("{\"asked\": \"", f);
	weights_check_print_asked(f, c);
	fprintf(f, "\", \"kept\": %s, \"pid\": ", c->lost ? "false" : "true");
	if (!c->lost) {
		fputs("null, \"policy\": null}", f);
		return;
	}
	fprintf(f, "%d, \"policy\": ", (int)c->pid);
	text_print_json(f, c->seen);
	fputc('}', f);
}

static void print_json(FILE *f, const struct view *v)
{
	bool first = true;

	fputs("{\"version\": 1, \"command\": ", f);
	text_print_json(f, v->r->command[0]);
	fprintf(f, ", \"pid\": %d, \"exit\": ", (int)v->r->pid);
	if (!v->status_known)
		fputs("{\"status\": null, \"signal\": null}", f);
	else if (WIFSIGNALED(v->exit_status))
		fprintf(f, "{\"status\": null, \"signal\": %d}", WTERMSIG(v->exit_status));
	else
		fprintf(f, "{\"status\": %d, \"signal\": null}", WEXITSTATUS(v->exit_status));
	fputs(", \"policy\": ", f);
	text_print_json(f, nc2_policy_name(v->mode).s);
	fprintf(f, ", \"page_size\": %ld, \"nodes\": [", sysconf(_SC_PAGESIZE));
	for (unsigned n = 0; n <= last_node(v->pl); n++) {
		if (!listed(v->pl, n))
			continue;
		fputs(first ? "" : ", ", f);
		print_json_node(f, v, n);
		first = false;
	}
	fprintf(f, "], \"total\": {\"heap\": %llu, \"anon\": %llu, \"file\": %llu}",
		v->pl->total[MAP_HEAP], v->pl->total[MAP_ANON], v->pl->total[MAP_FILE]);
	print_json_processes(f, v);
	print_json_weights(f, &v->r->weights);
	fprintf(f, ", \"counted\": {\"own\": \"%s\", \"started\": \"numa_maps sampled\", "
		"\"started_processes\": %u, \"sample_period_ms\": %d}",
		v->sampled ? "sample" : "exit", v->r->started_counted, SUPERVISE_SAMPLE_MS);
	fprintf(f, ", \"sampled\": %s}\n", v->sampled ? "true" : "false");
}

/* Keeps p among the REPORT_LARGEST, the most pages first (what is not
 * kept, p or the one it pushes out, lets its weights go). */
static void keep_if_large(struct report *r, const struct report_process *p)
{
	unsigned i = r->n_largest;

	if (i == REPORT_LARGEST && r->largest[i - 1].total >= p->total) {
		free(p->weights);
		return;
	}
	if (i == REPORT_LARGEST)
		free(r->largest[--i].weights);
	else
		r->n_largest++;
	for (; i > 0 && r->largest[i - 1].total < p->total; i--)
		r->largest[i] = r->largest[i - 1];
	r->largest[i] = *p;
}

/* printf's FMT appended to the malloc'd *buf of *len characters. */
__attribute__((format(printf, 3, 4)))
static int append_text(char **buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	char *grown;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	grown = realloc(*buf, *len + (size_t)n + 1);
	if (!grown)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(grown + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*buf = grown;
	*len += (size_t)n;
	return 0;
}

/* "N:W" for each node of the list NODES ("0-3,5"), the global table's
 * weights ("N:?" for one it has no file for), appended to buf at *len. */
static int append_global(char **buf, size_t *len, const char *nodes)
{
	const char *s = nodes;
	char *end;

	while (*s) {
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (end == s || (*end && *end != ',') || hi >= PARSE_MAX_NODES)
			return -EINVAL;
		for (unsigned long n = lo; n <= hi; n++) {
			unsigned w;
			int rc = gw_read((unsigned)n, &w) < 0 ?
				append_text(buf, len, "%s%lu:?", *len ? "," : "", n) :
				append_text(buf, len, "%s%lu:%u", *len ? "," : "", n, w);

			if (rc < 0)
				return rc;
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* The weights of one's weighted-interleave mappings, as report_process
 * has them (NULL: none). 0 or -errno. */
static int weights_text(const struct placement *one, char **out)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = 0;

	for (unsigned i = 0; rc == 0 && i < one->n_weights; i++) {
		const struct map_weights *w = &one->weights[i];
		char *global = NULL;
		size_t glen = 0;

		if (!w->own)
			rc = append_global(&global, &glen, w->text);
		if (rc == 0)
			rc = append_text(&buf, &len, "%s%s (%s)", len ? "; " : "",
					 w->own ? w->text : global, w->own ? "own" : "global");
		free(global);
	}
	if (rc < 0) {
		free(buf);
		buf = NULL;
	}
	*out = buf;
	return rc;
}

/* A new sample replaces the one before. */
static void forget_pages(struct report *r)
{
	placement_free(&r->pl);
	for (unsigned i = 0; i < r->n_largest; i++)
		free(r->largest[i].weights);
	r->n_largest = 0;
	r->processes = 0;
}

static int add_process(struct report *r, pid_t pid, const char *name, const struct placement *one)
{
	struct report_process p = { .pid = pid };
	int rc = placement_add(&r->pl, one);

	if (rc == 0)
		rc = weights_text(one, &p.weights);
	if (rc == 0) {
		for (enum map_kind k = 0; k < MAP_KINDS; k++) {
			p.pages[k] = one->total[k];
			p.total += one->total[k];
		}
		snprintf(p.name, sizeof(p.name), "%s", name);
		keep_if_large(r, &p);
		r->processes++;
	}
	return rc;
}

/* What the job started joins its own pages once, as the report is made. */
static int add_started(struct report *r)
{
	for (; r->started_counted < r->started.n; r->started_counted++) {
		const struct jobtree_proc *e = &r->started.p[r->started_counted];
		int rc = add_process(r, e->pid, e->name, &e->pl);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A process whose address space is gone (exiting, a zombie) shows an empty
 * numa_maps. */
static bool placement_empty(const struct placement *one)
{
	for (enum map_kind k = 0; k < MAP_KINDS; k++)
		if (one->total[k])
			return false;
	return true;
}

/* Failures are kept in r for the front end: a report that cannot be made
 * must not stop the job's exit. A sample that cannot be read, or that is
 * empty (the job is ending), leaves the one before. */
void nc2_report_add_process(const struct job_exit *x, void *arg)
{
	struct placement one = { 0 };
	struct report *r = arg;
	int rc;

	if (r->read_errno)
		return;
	rc = numamaps_read(x->tid, &one);
	if (x->sample && (rc < 0 || placement_empty(&one))) {
		placement_free(&one);
		return;
	}
	r->seen = true;
	r->pid = x->pid;
	if (x->sample)
		forget_pages(r);
	if (rc == 0) {
		char name[sizeof(r->largest[0].name)];

		proc_comm_read(x->pid, name, sizeof(name));
		rc = add_process(r, x->pid, name, &one);
	}
	placement_free(&one);
	if (rc == 0)
		rc = weights_check_process(&r->weights, x->pid, x->tid);
	if (rc < 0 && !x->sample) {
		r->read_errno = -rc;
		r->read_pid = x->pid;
	}
}

/* Failures are kept in r, as nc2_report_add_process() keeps them. */
void nc2_report_sample_started(pid_t job, void *arg)
{
	struct report *r = arg;
	int rc = r->read_errno ? 0 : jobtree_sample(&r->started, job);

	if (rc < 0) {
		r->read_errno = -rc;
		r->read_pid = job;
	}
}

/* The policy's shares, for the printers. */
static int make_view(struct view *v, const struct report *r, const struct job *job)
{
	v->r = r;
	v->pl = &r->pl;
	v->status_known = nc2_job_status(job, &v->exit_status);
	v->sampled = nc2_job_how(job) == WATCH_SAMPLE;
	v->running = nc2_job_running(job);
	v->mode = r->policy->mode == POLICY_NONE ? MPOL_DEFAULT : r->policy->mode;
	v->req = calloc(last_node(&r->pl) + 1, sizeof(*v->req));
	if (!v->req)
		return -ENOMEM;
	v->has_req = requested_shares(r->policy, v->req, last_node(&r->pl) + 1);
	return 0;
}

void nc2_report_print(struct report *r, const struct job *job)
{
	struct view v = { 0 };

	if (!r->seen || r->read_errno)
		return;
	if (add_started(r) < 0 || make_view(&v, r, job) < 0) {
		r->write_errno = ENOMEM;
		return;
	}
	if (r->path && ftruncate(fileno(r->out), 0) < 0) {
		r->write_errno = errno;
	} else {
		if (r->format == REPORT_JSON)
			print_json(r->out, &v);
		else
			print_table(r->out, &v);
		if (fflush(r->out) != 0)
			r->write_errno = errno;
	}
	free(v.req);
}

bool nc2_report_seen(const struct report *r)
{
	return r->seen;
}

int nc2_report_failed(const struct report *r, struct nc2_error *e)
{
	if (r->read_errno) {
		e->value = (unsigned)r->read_pid;
		return error_set(e, REPORT_UNREAD, r->read_errno);
	}
	if (r->write_errno)
		return error_set_name(e, REPORT_UNWRITTEN, r->write_errno, r->path);
	return 0;
}

int nc2_report_close(struct report *r, struct nc2_error *e)
{
	int rc = 0;

	placement_free(&r->pl);
	for (unsigned i = 0; i < r->n_largest; i++)
		free(r->largest[i].weights);
	jobtree_free(&r->started);
	if (r->path && fclose(r->out) != 0)
		rc = error_set_name(e, REPORT_WRITE, errno, r->path);
	free(r);
	return rc;
}
