// SPDX-License-Identifier: GPL-2.0-or-later
/* The wording both front ends share (messages.h): why a node list, a weight
 * list or --weights=auto is refused, and why a change of the global table
 * failed (a lease held by another job, no root, a kernel without it). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msg/messages.h"
#include "parse.h"

/* "invalid node list 'ARG': why", libnuma's why when it gave one. */
void msg_node_list(char *buf, size_t len, const char *arg)
{
	const char *why = nodes_last_warning();

	snprintf(buf, len, "invalid node list '%s'%s%s", arg, *why ? ": " : "", why);
}

/* "0", "0-3", "0,2,4-7": the nodes of mask, ranges joined. */
static void format_nodes(char *buf, size_t len, const struct bitmask *mask)
{
	size_t used = 0;
	int n = nodes_first(mask);

	buf[0] = '\0';
	while (n >= 0 && used < len) {
		int last = n;

		while (nodes_next(mask, (unsigned)last + 1) == last + 1)
			last++;
		used += (size_t)snprintf(buf + used, len - used, last > n ? "%s%d-%d" : "%s%d",
					 used ? "," : "", n, last);
		n = nodes_next(mask, (unsigned)last + 1);
	}
}

/* A node list naming NODE, which this machine (whose nodes are HAVE) does
 * not have: which it has, and where to see them. */
void msg_node_absent(char *buf, size_t len, const char *arg, const char *node,
		     const struct bitmask *have)
{
	char nodes[256];

	format_nodes(nodes, sizeof(nodes), have);
	snprintf(buf, len, "invalid node list '%s': node %s does not exist (this machine has "
		 "node%s %s; see numactl2 --hardware)", arg, node,
		 numa_bitmask_weight(have) == 1 ? "" : "s", nodes);
}

/* A node list libnuma refused on this machine: a node it does not have
 * (above its highest), or libnuma's why. */
void msg_node_refused(char *buf, size_t len, const char *arg)
{
	struct parse_err e;

	if (parse_list_numbers(arg, (unsigned long)numa_max_node(), &e) < 0)
		msg_node_absent(buf, len, arg, e.item, numa_nodes_ptr);
	else
		msg_node_list(buf, len, arg);
}

void msg_too_long(char *buf, size_t len, const char *option, size_t got, size_t max)
{
	snprintf(buf, len, "%s value too long: %zu characters (at most %zu)", option, got, max);
}

void msg_weight_not_in_set(char *buf, size_t len, unsigned node)
{
	snprintf(buf, len, "node %u in --weights is not in the interleave set", node);
}

/* --weights=auto without bandwidths: RC from auto_weights_read(),
 * NODE the one that has none. */
void msg_auto_unread(char *buf, size_t len, int rc, unsigned node)
{
	if (rc == -E2BIG)
		snprintf(buf, len, "--weights=auto takes at most %d nodes", BW_MAX_NODES);
	else if (rc == -ESRCH)
		snprintf(buf, len, "--weights=auto: the job's CPUs are on no node that %s lists",
			 lib_place(LIB_NODEPERF));
	else if (rc != -ENODATA)
		snprintf(buf, len, "--weights=auto: %s", strerror(-rc));
	else
		snprintf(buf, len, "node %u reports no bandwidth (nothing in %s/node%u/access1 or "
			 "access0): measure it with --measure, or use --weights=measured", node,
			 lib_place(LIB_NODEPERF), node);
}

/* -w local without nodes: RC from auto_local_nodes(). */
void msg_local_nodes(char *buf, size_t len, int rc)
{
	if (rc == -ENODATA)
		snprintf(buf, len, "node list 'local': no node with memory is nearest to the job's "
			 "CPUs (%s/nodeN/access1/initiators, or the distances)", lib_place(LIB_NODEPERF));
	else if (rc == -ESRCH)
		snprintf(buf, len, "node list 'local': the job's CPUs are on no node that %s lists",
			 lib_place(LIB_NODEPERF));
	else
		snprintf(buf, len, "node list 'local': %s", strerror(-rc));
}

void msg_auto_budget(char *buf, size_t len, unsigned budget, unsigned nnodes)
{
	snprintf(buf, len, "weight budget %u is below the %u nodes of the interleave set "
		 "(each weight is at least 1)", budget, nnodes);
}

void msg_no_weighted_interleave(char *buf, size_t len)
{
	snprintf(buf, len, "weighted interleave needs Linux 6.9 or later");
}

/* --no-global-weights, where the table does not hold the job's weights. */
void msg_no_global_write(char *buf, size_t len)
{
	snprintf(buf, len, "this kernel has no task-local weights (set_mempolicy2), and "
		 "--no-global-weights forbids changing the global ones");
}

/* MSG and, as err() would, ": " and RC's strerror. */
static void with_errno(char *buf, size_t len, int rc, const char *msg)
{
	snprintf(buf, len, "%s: %s", msg, strerror(-rc));
}

/* A user who is not root, with no numactl2d to ask, whose weights differ
 * from the table's: one line that says what it can do instead. */
static void needs_root(char *buf, size_t len, const struct table_said *t, unsigned node)
{
	if (!t->keep) {
		snprintf(buf, len, "changing global interleave weights needs root, or numactl2d "
			 "(node %u is %u, not %u)", node, t->now, t->want);
		return;
	}
	snprintf(buf, len, "node %u has global weight %u, not %u, and only root can change it, "
		 "or numactl2d where an admin runs it (numactl2d(8)): ask for the weights in "
		 "effect (--weights=%s), check with --dry-run, or have an admin run "
		 "'numactl2 --set-global-weights=%s'", node, t->now, t->want, t->have, t->wanted);
}

/* Why a user who is not root, with no numactl2d, cannot have the weights
 * asked (RC -EACCES), or a node the table has no weight for (-ENOENT). */
void msg_global_refused(char *buf, size_t len, const struct table_said *t, int rc,
			unsigned node)
{
	if (rc == -EACCES && t->asked)
		needs_root(buf, len, t, node);
	else if (rc == -EACCES)
		snprintf(buf, len, "changing global interleave weights needs root, or numactl2d "
			 "where an admin runs it (numactl2d(8))");
	else if (rc == -ENOENT)
		snprintf(buf, len, "node %u has no global interleave weight in %s", node,
			 lib_place(LIB_TABLE));
	else
		with_errno(buf, len, rc, "cannot change global interleave weights");
}

/* A check that could not finish (UNCHECKED): why. */
static void libnuma_unchecked(char *buf, size_t len, const struct libnuma_finding *f)
{
	char why[PATH_MAX + 128];

	if (f->error == -ETIMEDOUT)
		snprintf(why, sizeof(why), "its loader %s did not list its libraries within %g s",
			 f->lib, libnuma_check_limit_ms() / 1000.0);
	else if (f->error == -EFBIG && f->lib[0])
		snprintf(why, sizeof(why), "its loader %s wrote more than a library list", f->lib);
	else if (f->error == -EFBIG)
		snprintf(why, sizeof(why), "a static program with over %lu MiB of code and "
			 "constants", LIBNUMA_SCAN_MAX >> 20);
	else
		snprintf(why, sizeof(why), "%s", strerror(-f->error));
	snprintf(buf, len, "which libnuma %s starts with is not known (%s): its start-up may "
		 "reset the memory policy without its task-local weights", f->prog, why);
}

/* Which library a job's program starts with, and why it drops task-local
 * weights (lib/job/libnumacheck.c's verdict: DROPS, BUILT_IN, UNREADABLE
 * or UNCHECKED). */
void msg_libnuma_drops(char *buf, size_t len, const struct libnuma_finding *f)
{
	if (f->verdict == LIBNUMA_UNCHECKED)
		libnuma_unchecked(buf, len, f);
	else if (f->verdict == LIBNUMA_DROPS)
		snprintf(buf, len, "%s loads %s (libnuma 2.0.15-2.0.17), whose start-up resets "
			 "the memory policy without its task-local weights", f->prog, f->lib);
	else if (f->verdict == LIBNUMA_BUILT_IN)
		snprintf(buf, len, "%s is a static program with libnuma built in, whose version "
			 "cannot be read: its start-up may reset the memory policy without its "
			 "task-local weights", f->prog);
	else
		snprintf(buf, len, "%s loads %s, a libnuma whose version cannot be read: its "
			 "start-up may reset the memory policy without its task-local weights",
			 f->prog, f->lib);
}

/* The line a front end says when it takes the global path for that reason. */
void msg_libnuma_global(char *buf, size_t len, const struct libnuma_finding *f)
{
	size_t used;

	msg_libnuma_drops(buf, len, f);
	used = strlen(buf);
	snprintf(buf + used, len - used, "; the weights go to the global table instead, with a lease");
}

/* What a change did to the kernel's auto weights, after "; ", or "". */
void msg_auto_switched_off(char *buf, size_t len, const struct table_said *t)
{
	if (!t->auto_was_on)
		snprintf(buf, len, "%s", "");
	else if (t->auto_until_reboot)
		snprintf(buf, len, "; kernel auto weights switched off until reboot (%s)",
			 MSG_AUTO_GONE_WHY);
	else
		snprintf(buf, len, "; kernel auto weights switched off");
}

/* What became of a run's change undone (its exec or its policy failed):
 * everything back, or exactly what stays (request_undo_stays()). */
void msg_undone(char *buf, size_t len, const char *stays)
{
	if (stays[0])
		snprintf(buf, len, "could not put everything back: %s", stays);
	else
		snprintf(buf, len, "put the global interleave weights back");
}

/* Weights given for a set of one node, whose pages all go there: the
 * global table is left as it is (resolve.c, WHY_ONE_NODE). */
void msg_one_node(char *buf, size_t len, const struct policy *p)
{
	snprintf(buf, len, "node %d alone needs no weights (weighted interleave over one node "
		 "puts every page there): the global interleave weights are left as they are",
		 nodes_first(p->nodes));
}

/* Why the plan leaves the run's weights where it does, when a user must
 * know it before the run: the program's libnuma sends them to the global
 * table, or one node needs none. False when there is nothing to say. */
bool msg_plan_notice(char *buf, size_t len, const struct plan *pl, const struct policy *p)
{
	if (pl->why == WHY_LIBNUMA)
		msg_libnuma_global(buf, len, &pl->libnuma);
	else if (pl->why == WHY_ONE_NODE)
		msg_one_node(buf, len, p);
	else
		return false;
	return true;
}

/* What becomes of a job's change when the job ends. */
static const char *after_job(const struct table_said *t)
{
	/* A job's change that cannot be saved is refused before it is made
	 * (lib/owner/grant.c): a change said here goes back. */
	if (t->restores)
		return "; all back as they were once the last job using them ends";
	return t->keep ? "; kept after the job (--keep-weights)" : "";
}

/* What a change of the global table did, in one line; false when it
 * changed nothing. */
bool msg_table_changed(char *buf, size_t len, const struct table_said *t)
{
	char auto_off[MSG_MAX];

	if (!t->changed[0])
		return false;
	msg_auto_switched_off(auto_off, sizeof(auto_off), t);
	snprintf(buf, len, "changed global interleave weights: %s%s%s", t->changed, auto_off,
		 after_job(t));
	return true;
}

/* What the table's owner could not put back at a job's end (its notice
 * promised the rest): false when there is nothing to say. */
bool msg_settle(char *buf, size_t len, const struct settle *s)
{
	if (s->state == SETTLE_FAILED)
		snprintf(buf, len, "cannot put the global interleave weights back after the job "
			 "(%s): %s", lib_place(LIB_OWNER), strerror(-s->err));
	else if (s->state == SETTLE_DONE && s->stays[0])
		snprintf(buf, len, "could not put everything back after the job: %s", s->stays);
	else
		return false;
	return true;
}
