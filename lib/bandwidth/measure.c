// SPDX-License-Identifier: GPL-2.0-or-later
/* The triad a[i] = b[i] + s * c[i] (two reads and a write, counted as
 * STREAM counts them, without write-allocate traffic) on three arrays bound
 * to one node at a time, so that memory use is one node's size. One thread
 * per CPU of the affinity, each pinned to its CPU, each on its slice; the
 * time of a pass runs from the start barrier to the last thread's end. The
 * best of up to MEASURE_PASSES passes is kept: interference only slows a
 * pass down. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bandwidth/bwsum.h"
#include "bandwidth/measure.h"
#include "error/error.h"
#include "libnumactl2.h"
#include "syscalls.h"

enum phase { PHASE_TOUCH, PHASE_TRIAD, PHASE_QUIT };

struct pool {
	pthread_barrier_t start, done;
	enum phase phase;
	double *a, *b, *c;
	size_t per_thread;		/* elements of each array per thread */
	unsigned threads;
};

struct worker {
	pthread_t tid;
	struct pool *pool;
	unsigned index;
	int cpu;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void slice(const struct pool *p, unsigned index)
{
	size_t first = index * p->per_thread, end = first + p->per_thread;
	double *a = p->a, *b = p->b, *c = p->c;

	if (p->phase == PHASE_TOUCH) {
		for (size_t i = first; i < end; i++) {
			a[i] = 0;
			b[i] = 1;
			c[i] = 2;
		}
		return;
	}
	for (size_t i = first; i < end; i++)
		a[i] = b[i] + 3.0 * c[i];
}

/* Pinned by the thread itself, not by pthread_attr_setaffinity_np(), whose
 * failure would stop pthread_create(): should the pin fail (the cpuset
 * shrank meanwhile), the thread keeps the affinity it inherited and the
 * measurement goes on. */
static void pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	pin(w->cpu);
	for (;;) {
		pthread_barrier_wait(&p->start);
		if (p->phase == PHASE_QUIT)
			return NULL;
		slice(p, w->index);
		pthread_barrier_wait(&p->done);
	}
}

/* One phase on every thread; its time in seconds. */
static double run_phase(struct pool *p, enum phase phase)
{
	double t0;

	p->phase = phase;
	t0 = now();
	pthread_barrier_wait(&p->start);
	pthread_barrier_wait(&p->done);
	return now() - t0;
}

static int start_workers(struct pool *p, struct worker *w, const cpu_set_t *cpus)
{
	unsigned started = 0;
	int rc = 0;

	pthread_barrier_init(&p->start, NULL, p->threads + 1);
	pthread_barrier_init(&p->done, NULL, p->threads + 1);
	for (int cpu = 0; cpu < CPU_SETSIZE && started < p->threads && rc == 0; cpu++) {
		if (!CPU_ISSET(cpu, cpus))
			continue;
		w[started] = (struct worker){ .pool = p, .index = started, .cpu = cpu };
		rc = -pthread_create(&w[started].tid, NULL, work, &w[started]);
		started += rc == 0;
	}
	return rc;
}

static void stop_workers(struct pool *p, struct worker *w)
{
	p->phase = PHASE_QUIT;
	pthread_barrier_wait(&p->start);
	for (unsigned i = 0; i < p->threads; i++)
		pthread_join(w[i].tid, NULL);
	pthread_barrier_destroy(&p->start);
	pthread_barrier_destroy(&p->done);
}

/* Tells the front end, if it asked, where the measurement is. */
static void progress(const struct measure_req *req, struct measure_progress *pr)
{
	if (!req->progress)
		return;
	pr->secs = now() - pr->t0;
	req->progress(pr, req->progress_arg);
}

/* Passes on one node until MEASURE_PASSES or its share of the time is used;
 * the first always runs. */
static int measure_node(struct pool *p, struct measurement *m, unsigned i, double budget,
			const struct measure_req *req, struct measure_progress *pr)
{
	size_t bytes = p->per_thread * p->threads * sizeof(double);
	double best = 0, t0 = now(), t = 0;

	p->a = numa_alloc_onnode(bytes, (int)m->node[i]);
	p->b = numa_alloc_onnode(bytes, (int)m->node[i]);
	p->c = numa_alloc_onnode(bytes, (int)m->node[i]);
	if (!p->a || !p->b || !p->c)
		return -ENOMEM;
	*pr = (struct measure_progress){ .t0 = pr->t0, .node = m->node[i], .index = i,
					 .nodes = m->n };
	progress(req, pr);
	run_phase(p, PHASE_TOUCH);
	for (unsigned pass = 1; pass <= MEASURE_PASSES; pass++) {
		if (pass > 1 && now() - t0 + t > budget)
			break;
		pr->pass = pass;
		progress(req, pr);
		t = run_phase(p, PHASE_TRIAD);
		best = pass == 1 || t < best ? t : best;
		m->passes[i] = pass;
	}
	m->gbps[i] = 3.0 * (double)bytes / best / 1e9;
	numa_free(p->a, bytes);
	numa_free(p->b, bytes);
	numa_free(p->c, bytes);
	return 0;
}

static void list_nodes(const struct bitmask *nodes, struct measurement *m)
{
	m->n = 0;
	for (unsigned n = 0; n < nodes->size && m->n < BW_MAX_NODES; n++)
		if (numa_bitmask_isbitset(nodes, n))
			m->node[m->n++] = n;
}

static int measure_nodes(struct pool *p, const struct measure_req *req, struct measurement *m)
{
	struct measure_progress pr = { .t0 = now() };
	int rc = 0;

	for (unsigned i = 0; i < m->n && rc == 0; i++)
		rc = measure_node(p, m, i, (double)req->secs / m->n, req, &pr);
	pr.done = true;
	progress(req, &pr);
	m->secs = now() - pr.t0;
	return rc;
}

/* nc2_measure_run(), 0 or -errno. */
static int measure(const struct measure_req *req, struct measurement *m)
{
	struct pool p = { 0 };
	struct worker *w;
	cpu_set_t cpus;
	int rc;

	if (sched_getaffinity(0, sizeof(cpus), &cpus) < 0)
		return -errno;
	list_nodes(req->nodes, m);
	p.threads = m->threads = (unsigned)CPU_COUNT(&cpus);
	p.per_thread = req->size / 3 / sizeof(double) / p.threads;
	if (p.per_thread == 0)
		return -EINVAL;
	w = calloc(p.threads, sizeof(*w));
	if (!w)
		return -ENOMEM;
	rc = start_workers(&p, w, &cpus);
	/* The workers that started wait on for the rest: W stays theirs. */
	if (rc < 0)
		return rc;
	rc = measure_nodes(&p, req, m);
	stop_workers(&p, w);
	free(w);
	if (rc < 0)
		return rc;
	return bw_choose_weights(m->gbps, m->n, req->budget, m->weight, &m->choice);
}

int nc2_measure_run(const struct measure_req *req, struct measurement *m, struct nc2_error *e)
{
	int rc = measure(req, m);

	return rc < 0 ? error_set(e, REQ_MEASURE, rc) : 0;
}

struct bitmask *nc2_measure_default_nodes(void)
{
	struct bitmask *nodes = numa_get_mems_allowed();

	for (unsigned n = 0; n < nodes->size; n++)
		if (numa_bitmask_isbitset(nodes, n) && numa_node_size64((int)n, NULL) <= 0)
			numa_bitmask_clearbit(nodes, n);
	return nodes;
}

int measure_check_size(const struct bitmask *nodes, unsigned long long size, unsigned *node)
{
	for (unsigned n = 0; n < nodes->size; n++) {
		long long free_bytes = 0;

		if (!numa_bitmask_isbitset(nodes, n))
			continue;
		if (numa_node_size64((int)n, &free_bytes) <= 0 || (unsigned long long)free_bytes < size) {
			*node = n;
			return -ENOMEM;
		}
	}
	return 0;
}

void nc2_measure_print(FILE *f, const struct measurement *m)
{
	for (unsigned i = 0; i < m->n; i++)
		fprintf(f, "node %u: %.1f GB/s (best of %u)\n", m->node[i], m->gbps[i], m->passes[i]);
	fputs("weights:", f);
	for (unsigned i = 0; i < m->n; i++)
		fprintf(f, "%s%u:%u", i ? "," : " ", m->node[i], m->weight[i]);
	fprintf(f, "\nmeasured in %.1f s with %u thread%s\n", m->secs, m->threads,
		m->threads == 1 ? "" : "s");
}
