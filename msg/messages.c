// SPDX-License-Identifier: GPL-2.0-or-later
/* The wording both front ends share (messages.h): why a node list, a weight
 * list or --weights=auto is refused, why a change of the global table
 * failed (a lease held by another job, no root, a kernel without it), and
 * --weights=auto's weights from an approximated row. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msg/messages.h"
#include "parse.h"

/* "invalid node list 'ARG': WHY", libnuma's why when it gave one (WHY: ""
 * when it gave none). */
void msg_node_list(char *buf, size_t len, const char *arg, const char *why)
{
	snprintf(buf, len, "invalid node list '%s'%s%s", arg, *why ? ": " : "", why);
}

/* "0", "0-3", "0,2,4-7": the nodes of mask, ranges joined. */
static void format_nodes(char *buf, size_t len, const struct bitmask *mask)
{
	size_t used = 0;
	int n = nc2_nodes_first(mask);

	buf[0] = '\0';
	while (n >= 0 && used < len) {
		int last = n;

		while (nc2_nodes_next(mask, (unsigned)last + 1) == last + 1)
			last++;
		used += (size_t)snprintf(buf + used, len - used, last > n ? "%s%d-%d" : "%s%d",
					 used ? "," : "", n, last);
		n = nc2_nodes_next(mask, (unsigned)last + 1);
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
 * (above its highest), or libnuma's WHY. */
void msg_node_refused(char *buf, size_t len, const char *arg, const char *why)
{
	struct parse_err e;

	if (nc2_parse_list_numbers(arg, (unsigned long)numa_max_node(), &e) < 0)
		msg_node_absent(buf, len, arg, e.item, numa_nodes_ptr);
	else
		msg_node_list(buf, len, arg, why);
}

void msg_too_long(char *buf, size_t len, const char *option, size_t got, size_t max)
{
	snprintf(buf, len, "%s value too long: %zu characters (at most %zu)", option, got, max);
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
 * everything back, or exactly what stays (nc2_request_undo_stays()). */
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
		 nc2_nodes_first(p->nodes));
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

/* --weights=auto's weights from an approximated row (HMAT unread), said
 * once they are set: why HMAT was not read, the weights, what the row is
 * worth (the library's words, which --dry-run's lines share) and what
 * measures from the job's CPUs instead. */
void msg_auto_notice(char *buf, size_t len, const struct nc2_auto_notice *an)
{
	size_t used = (size_t)snprintf(buf, len, "--weights=auto (HMAT: %s): weights", an->hmat);

	for (unsigned i = 0; i < an->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u:%u", i ? "," : " ",
					 an->node[i], an->weight[i]);
	if (used < len)
		snprintf(buf + used, len - used, " %s; --weights=measured measures from the job's CPUs",
			 an->approximated);
}
