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
