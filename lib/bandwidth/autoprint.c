// SPDX-License-Identifier: GPL-2.0-or-later
/* What --dry-run says about --weights=auto: the bandwidths, numactl2's
 * weights and the kernel's with their modelled throughput, the sum of
 * numactl2's and why, and the nodes that cannot help; and a run's notice
 * when the row is approximated, as a value (struct nc2_auto_notice) that
 * takes the words it shares with those lines from here. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bandwidth/autoweights.h"

/* Words written into a buffer piece by piece; used stops counting once
 * past len (snprintf truncated them). */
struct said {
	char *buf;
	size_t len, used;
};

static void __attribute__((format(printf, 2, 3))) say(struct said *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->used >= s->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->used, s->len - s->used, fmt, ap);
	va_end(ap);
	s->used += n > 0 ? (size_t)n : 0;
}

/* The nodes of W (0: not in it) whose bandwidth is exact: "node 2" or "nodes 0,2". */
static void say_exact_nodes(struct said *s, const struct auto_weights *aw, const uint8_t *w)
{
	const char *sep = "";
	unsigned count = 0;

	for (unsigned j = 0; j < aw->n; j++)
		count += aw->exact[j] && w[j];
	say(s, "node%s ", count > 1 ? "s" : "");
	for (unsigned j = 0; j < aw->n; j++)
		if (aw->exact[j] && w[j]) {
			say(s, "%s%u", sep, aw->node[j]);
			sep = ",";
		}
}

/* An approximated row's figure for W, into BUF: from what it is
 * approximated and the worst case the exact figures allow
 * (auto_worst_case()), never the guess's. --dry-run's lines and a run's
 * notice say it alike. */
static void worst_case_said(char *buf, size_t len, const struct auto_weights *aw,
			    const uint8_t *w)
{
	struct said s = { buf, len, 0 };
	double total, t = auto_worst_case(aw, w, &total);

	say(&s, "approximated from %s: ", aw->source == AUTO_SLIT ?
	    "SLIT distances" : "the nearest initiators' figures");
	if (t == 0) {
		say(&s, "worst case not known (no node's figure is exact for the job's CPUs)");
		return;
	}
	say(&s, "worst case %.1f GB/s, from ", t / 1000);
	say_exact_nodes(&s, aw, w);
	say(&s, " (exact for the job's CPUs) of their %.1f GB/s", total / 1000);
}

static void print_worst_case(FILE *f, const struct auto_weights *aw, const uint8_t *w)
{
	char said[NC2_AUTO_SAID_MAX];

	worst_case_said(said, sizeof(said), aw, w);
	fputs(said, f);
}

static void print_auto_line(FILE *f, const char *label, const struct auto_weights *aw, const uint8_t *w,
			    unsigned budget)
{
	double total = 0, t = bw_modelled_throughput(aw->bw, aw->n, w);
	unsigned sum = 0;

	fprintf(f, "%s:", label);
	for (unsigned i = 0; i < aw->n; i++) {
		fprintf(f, " %u:%u", aw->node[i], w[i]);
		sum += w[i];
		total += aw->bw[i];
	}
	if (budget == BW_BUDGET_CHOOSE)
		fprintf(f, " (sum %u, chosen): ", sum);
	else
		fprintf(f, " (sum %u, budget %u): ", sum, budget);
	if (auto_weights_approximated(aw))
		print_worst_case(f, aw, w);
	else
		fprintf(f, "modelled %.1f GB/s, %.1f%% of the nodes' %.1f GB/s", t / 1000,
			100 * t / total, total / 1000);
	fputc('\n', f);
}

/* Why the sum of numactl2's weights is what it is (bw_choose_weights()). */
static void print_auto_sum(FILE *f, const struct auto_weights *aw)
{
	const struct bw_choice *c = &aw->choice;

	fprintf(f, "auto weight sum %u: %.1f%% of ", c->sum, 100 * c->t / c->total);
	if (auto_weights_approximated(aw))
		fprintf(f, "the approximated row");
	else
		fprintf(f, "%.1f GB/s", c->total / 1000);
	if (c->why == BW_SUM_BUDGET) {
		fprintf(f, ", the best within --weight-budget=%u\n", aw->budget);
		return;
	}
	if (c->why == BW_SUM_KEPT) {
		fprintf(f, ", the best within the kernel's budget of %d, reaches %.0f%%\n",
		       BW_BUDGET_DEFAULT, 100 * BW_SUM_GOAL);
		return;
	}
	if (c->t_default > 0)
		fprintf(f, "; at %d: %.1f%%", BW_BUDGET_DEFAULT, 100 * c->t_default / c->total);
	if (c->why == BW_SUM_REACHED && c->stepped)
		fprintf(f, " (one above %u, the smallest sum that reaches %.0f%%: it models more)\n",
			c->sum - 1, 100 * BW_SUM_GOAL);
	else if (c->why == BW_SUM_REACHED)
		fprintf(f, " (the smallest sum that reaches %.0f%%)\n", 100 * BW_SUM_GOAL);
	else
		fprintf(f, " (%.0f%% is out of reach with weights up to %d: the best)\n",
		       100 * BW_SUM_GOAL, BW_WEIGHT_MAX);
}

/* The slowest nodes, if --weights=auto models more without them
 * (bw_leave_out() says exactly when), and the option line that leaves them
 * out. */
static void print_leave_out(FILE *f, const struct auto_weights *aw)
{
	bool keep[BW_MAX_NODES];
	double t, bw_out = 0;
	int out = bw_leave_out(aw->bw, aw->n, aw->budget, keep, &t);
	const char *sep = "";

	if (out <= 0 || auto_weights_approximated(aw))
		return;
	fprintf(f, "cannot help: node%s ", out > 1 ? "s" : "");
	for (unsigned i = 0; i < aw->n; i++)
		if (!keep[i]) {
			fprintf(f, "%s%u", sep, aw->node[i]);
			sep = ",";
			bw_out += aw->bw[i];
		}
	fprintf(f, " (%.1f GB/s, less than the rounding of %s weight%s costs); use -w ", bw_out / 1000,
	       out > 1 ? "their" : "its", out > 1 ? "s" : "");
	sep = "";
	for (unsigned i = 0; i < aw->n; i++)
		if (keep[i]) {
			fprintf(f, "%s%u", sep, aw->node[i]);
			sep = ",";
		}
	fprintf(f, " --weights=auto");
	if (aw->budget != BW_BUDGET_CHOOSE)
		fprintf(f, " --weight-budget=%u", aw->budget);
	fprintf(f, ": modelled %.1f GB/s, %.1f GB/s with %s\n", t / 1000, aw->choice.t / 1000,
	       out > 1 ? "them" : "it");
}

/* The job's CPU nodes, and what each counts for. */
static void print_initiators(FILE *f, const struct auto_weights *aw)
{
	static const char *const from[] = {
		[INIT_CPUNODEBIND] = "--cpunodebind", [INIT_PHYSCPUBIND] = "--physcpubind",
		[INIT_AFFINITY] = "its affinity now",
	};
	const struct initiators *in = &aw->init;

	fprintf(f, "initiators (the job's CPUs, from %s):", from[in->from]);
	for (unsigned k = 0; k < in->n; k++)
		fprintf(f, "%s node %u (%u CPU%s)", k ? "," : "", in->node[k], in->cpus[k],
			in->cpus[k] > 1 ? "s" : "");
	fprintf(f, in->n > 1 ? ": each node's bandwidth from them, by their share of the CPUs\n" :
			       "\n");
}

static const char *hmat_why(int rc)
{
	if (rc == -EBADMSG)
		return "malformed";
	if (rc == -ENODATA)
		return "no bandwidth for every initiator and node";
	return strerror(-rc);
}

/* Where the bandwidths came from, and what is approximate about them. */
static void print_source(FILE *f, const struct auto_weights *aw)
{
	if (aw->source == AUTO_HMAT) {
		fprintf(f, "bandwidth from: HMAT%s, from the job's initiators to each node (%s)\n",
			aw->via_owner ? " (read by numactl2d)" : "",
			aw->srat ? "proximity domains to nodes by SRAT" :
				   "no usable SRAT: proximity domain N taken for node N");
		return;
	}
	fprintf(f, "bandwidth from: sysfs access1 or access0, the nearest initiator's (HMAT: %s)",
		hmat_why(aw->hmat_rc));
	if (aw->source == AUTO_NEAREST)
		fprintf(f, "; the job runs on it: as the firmware gives it\n");
	else if (aw->source == AUTO_SLIT)
		fprintf(f, "; scaled by SLIT distance for the job's initiators that are not the "
			"nearest: an approximation (bandwidth taken as inverse to distance); "
			"--weights=measured measures from the job's CPUs\n");
	else
		fprintf(f, "; as is for the job's initiators that are not the nearest (no SLIT "
			"distances): an approximation that may promise more than they draw; "
			"--weights=measured measures from the job's CPUs\n");
}

/* What the nodes nearest to the job's CPUs alone would give (-w local):
 * modelled where their figures are exact, beside all the nodes' figure. */
static void print_local(FILE *f, const struct auto_weights *aw)
{
	uint8_t w[BW_MAX_NODES] = { 0 };
	double total = 0, all = aw->choice.t, exact_sum;
	bool exact = true;
	unsigned k = 0;

	if (!aw->nlocal)
		return;
	fprintf(f, "local nodes (nearest to the job's CPUs, -w local):");
	for (unsigned j = 0; j < aw->n; j++)
		if (aw->local[j]) {
			w[j] = aw->wlocal[k++];
			fprintf(f, " %u:%u", aw->node[j], w[j]);
			total += aw->bw[j];
			exact = exact && aw->exact[j];
		}
	if (auto_weights_approximated(aw) && !exact) {
		fprintf(f, ": ");
		print_worst_case(f, aw, w);
		fputc('\n', f);
		return;
	}
	if (auto_weights_approximated(aw))
		all = auto_worst_case(aw, aw->w, &exact_sum);
	fprintf(f, ": modelled %.1f GB/s of their %.1f GB/s, beside %s%.1f GB/s with all %u nodes\n",
		aw->tlocal / 1000, total / 1000, auto_weights_approximated(aw) ? "a worst case of " : "",
		all / 1000, aw->n);
}

/* --weights=auto: the bandwidths, numactl2's weights and the kernel's, and
 * what the model predicts for each; the sum and why; the nodes that cannot
 * help; the job's initiators, where the bandwidths came from, the local
 * nodes. */
void auto_weights_print(FILE *f, const struct auto_weights *aw)
{
	fprintf(f, "bandwidth (MB/s, min of read and write, %s):",
		aw->source == AUTO_HMAT ? "HMAT, from the job's CPUs" : "HMAT access1");
	for (unsigned i = 0; i < aw->n; i++)
		fprintf(f, " %u:%.0f%s%s", aw->node[i], aw->bw[i],
			aw->source != AUTO_HMAT && aw->access[i] == 0 ? " (access0)" : "",
			auto_weights_approximated(aw) && !aw->exact[i] ? " (approximated)" : "");
	fprintf(f, "\n");
	print_auto_line(f, "auto weights", aw, aw->w,
			aw->choice.why == BW_SUM_KEPT ? BW_BUDGET_DEFAULT : aw->budget);
	print_auto_line(f, "kernel auto weights", aw, aw->kernel, BW_BUDGET_DEFAULT);
	print_auto_sum(f, aw);
	print_leave_out(f, aw);
	print_initiators(f, aw);
	print_source(f, aw);
	print_local(f, aw);
}

bool auto_weights_notice(const struct auto_weights *aw, struct nc2_auto_notice *an)
{
	if (!auto_weights_approximated(aw))
		return false;
	an->n = aw->n;
	memcpy(an->node, aw->node, aw->n * sizeof(*an->node));
	memcpy(an->weight, aw->w, aw->n * sizeof(*an->weight));
	snprintf(an->hmat, sizeof(an->hmat), "%s", hmat_why(aw->hmat_rc));
	worst_case_said(an->approximated, sizeof(an->approximated), aw, aw->w);
	return true;
}
