// SPDX-License-Identifier: GPL-2.0-or-later
/* Every way a request can fail (lib/request), worded once for the CLI and
 * the Slurm plugin. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msg/messages.h"
#include "msg/reqerror.h"

/* No room for a measurement (nc2_measure_room()). */
static bool measure_error(char *buf, size_t len, const struct request_error *e)
{
	switch (e->kind) {
	case REQ_MEASURE_TOO_MANY:
		snprintf(buf, len, "--measure measures at most %d nodes", BW_MAX_NODES);
		return true;
	case REQ_MEASURE_NODE_ROOM:
		snprintf(buf, len, "--measure-size: node %u has less than %u MiB free", e->node,
			 e->value);
		return true;
	case REQ_MEASURE_CGROUP_ROOM:
		snprintf(buf, len, "--measure-size: the memory cgroup leaves %u MiB, less than "
			 "%u MiB", e->count, e->value);
		return true;
	default:
		return false;
	}
}

/* The refusals about the weights asked for. */
static bool weights_error(char *buf, size_t len, const struct request_error *e)
{
	switch (e->kind) {
	case REQ_NOMEM_WEIGHTS:
		snprintf(buf, len, "cannot keep the weights: %s", strerror(e->err));
		return true;
	case REQ_NOMEM_LIST:
		snprintf(buf, len, "cannot read the weight list: %s", strerror(e->err));
		return true;
	case REQ_WEIGHT_LIST:
		parse_strerror(&e->parse, "weight list", buf, len);
		return true;
	case REQ_WEIGHT_NOT_IN_SET:
		msg_weight_not_in_set(buf, len, e->node);
		return true;
	case REQ_AUTO_UNREAD:
		msg_auto_unread(buf, len, -e->err, e->node);
		return true;
	case REQ_AUTO_BUDGET:
		msg_auto_budget(buf, len, e->value, e->count);
		return true;
	case REQ_BUDGET_BELOW_NODES:
		snprintf(buf, len, "weight budget %u is below the %u nodes of the interleave set "
			 "(each weight is at least 1)", e->value, e->count);
		return true;
	case REQ_MEASURE:
		snprintf(buf, len, "cannot measure the bandwidth: %s", strerror(e->err));
		return true;
	default:
		return false;
	}
}

/* The refusals of the user's words as a request's setters take them
 * (lib/request/fill.c). */
static bool fill_error(char *buf, size_t len, const struct request_error *e)
{
	switch (e->kind) {
	case REQ_NODE_LIST:
		msg_node_refused(buf, len, e->arg);
		return true;
	case REQ_NODE_ABSENT:
		msg_node_absent(buf, len, e->arg, e->parse.item, numa_nodes_ptr);
		return true;
	case REQ_NODE_SYNTAX:
		msg_node_list(buf, len, e->arg);
		return true;
	case REQ_LOCAL_NODES:
		msg_local_nodes(buf, len, -e->err);
		return true;
	case REQ_WEIGHTS_NEED_INTERLEAVE:
		snprintf(buf, len, "--weights needs --weighted-interleave or --interleave");
		return true;
	case REQ_BUDGET_NEEDS_AUTO:
		snprintf(buf, len, "--weight-budget needs --weights=auto or --weights=measured");
		return true;
	case REQ_BUDGET_INVALID:
		snprintf(buf, len, "invalid weight budget '%s' (1-%d)", e->arg, BW_BUDGET_MAX);
		return true;
	case REQ_FORCE_WITH_WAIT:
		snprintf(buf, len, "options --force and --wait cannot be combined");
		return true;
	default:
		return measure_error(buf, len, e);
	}
}

/* A holder in the way: who, and what this run needed there. */
static void owner_held(char *buf, size_t len, const struct request_error *e, const char *remedy)
{
	const struct owner_refused *o = &e->owner;
	char gave_up[64] = "", need[64];

	if (o->waited)
		snprintf(gave_up, sizeof(gave_up), "gave up after waiting %u s: ", o->waited);
	if (o->want)
		snprintf(need, sizeof(need), "this needs weight %u there", o->want);
	else
		snprintf(need, sizeof(need), "the kernel's auto weights need it free");
	snprintf(buf, len, "%snode %u is held at weight %u by PID %u (%s, uid %u)%s; %s%s%s",
		 gave_up, e->node, o->held, o->pid, o->text, o->uid,
		 o->by_service ? " through numactl2d" : "", need, o->waited ? "" : ": ",
		 o->waited ? "" : remedy);
}

/* A write the table refused, every write undone but, where the undo could
 * not turn them on again, the kernel's auto weights. WHO: "numactl2d " or "". */
static void owner_unwritten(char *buf, size_t len, const struct request_error *e,
			    const char *who)
{
	const struct owner_refused *o = &e->owner;
	char stays[160] = "none changed";

	if (o->auto_until_reboot)
		snprintf(stays, sizeof(stays), "none changed, but the kernel's auto weights stay "
			 "off until reboot: %s", MSG_AUTO_GONE_WHY);
	else if (o->auto_stays_off)
		snprintf(stays, sizeof(stays), "none changed, but the kernel's auto weights stay "
			 "off");
	if (e->err == ENODEV)
		snprintf(buf, len, "the platform reports no node bandwidth; the kernel cannot "
			 "set weights from it");
	else if (o->text[0])
		snprintf(buf, len, "%s%s: %s", who, o->text, strerror(e->err));
	else
		snprintf(buf, len, "%scannot change global interleave weight of node %u (%s): %s",
			 who, e->node, stays, strerror(e->err));
}

/* What the table's owner answered, in one line: numactl2d ("numactl2d
 * refused: ..."), or root's own, numactl2 itself where no service runs,
 * which needs no name. REMEDY: the front end's option to wait for a holder. */
static void owner_error(char *buf, size_t len, const struct request_error *e, const char *remedy)
{
	const struct owner_refused *o = &e->owner;
	const char *who = o->by_service ? "numactl2d " : "";

	switch (o->said) {
	case OWNER_SAID_RULE:
		snprintf(buf, len, "%srefused to change node %u: %s", who, e->node, o->text);
		break;
	case OWNER_SAID_HELD:
		owner_held(buf, len, e, remedy);
		break;
	case OWNER_SAID_LIMIT:
		snprintf(buf, len, "%srefused: %s", who, o->text);
		break;
	case OWNER_SAID_UNSAVED:
		snprintf(buf, len, "%scannot save %s (%s): nothing changed", who,
			 o->by_service ? "its state" : lib_place(LIB_OWNER), strerror(e->err));
		break;
	case OWNER_SAID_UNWRITTEN:
		owner_unwritten(buf, len, e, who);
		break;
	case OWNER_SAID_BAD:
		if (e->err == ENOENT)
			snprintf(buf, len, "node %u has no global interleave weight in %s", e->node,
				 lib_place(LIB_TABLE));
		else
			snprintf(buf, len, "%sdid not take the request: %s", who, o->text);
		break;
	case OWNER_SAID_AUTO_LOST:
		snprintf(buf, len, "%srefused: %s; as root, --keep-weights makes the change, and "
			 "keeps it after the job", who, o->text);
		break;
	default:
		if (o->by_service)
			snprintf(buf, len, "no answer from numactl2d: %s", strerror(e->err));
		else
			snprintf(buf, len, "cannot take the global weight table's state in %s: %s; "
				 "nothing changed", lib_place(LIB_OWNER), strerror(e->err));
	}
}

/* The refusals about where they go, and setting the policy. */
static void target_error(char *buf, size_t len, const struct request_error *e,
			 const struct plan *pl, const char *remedy)
{
	size_t used;

	switch (e->kind) {
	case REQ_LIBNUMA_UNREAD:
		snprintf(buf, len, "cannot tell which libnuma '%s' loads: %s", pl->libnuma.prog,
			 strerror(e->err));
		break;
	case REQ_LIBNUMA_REFUSED:
		msg_libnuma_drops(buf, len, &pl->libnuma);
		used = strlen(buf);
		snprintf(buf + used, len - used, ", and --no-global-weights forbids changing "
			 "the global ones");
		break;
	case REQ_NO_GLOBAL_WRITE:
		msg_no_global_write(buf, len);
		break;
	case REQ_NO_WEIGHTED_INTERLEAVE:
		msg_no_weighted_interleave(buf, len);
		break;
	case REQ_GLOBAL_REFUSED:
		msg_global_refused(buf, len, &e->table, -e->err, e->node);
		break;
	case REQ_NO_GLOBAL_TABLE:
		snprintf(buf, len, "this kernel has no global interleave weights (needs Linux 6.9 "
			 "or later)");
		break;
	case REQ_NO_AUTO_WEIGHTS:
		snprintf(buf, len, "this kernel has no auto interleave weights (needs Linux 6.16 "
			 "or later)");
		break;
	case REQ_PREFERRED_MANY:
		snprintf(buf, len, "--preferred-many needs Linux 5.15 or later");
		break;
	case REQ_OWNER:
		owner_error(buf, len, e, remedy);
		break;
	default:
		snprintf(buf, len, "cannot set %s policy: %s", policy_name(e->mode),
			 strerror(e->err));
	}
}

void msg_request_error(char *buf, size_t len, const struct request_error *e,
		       const struct plan *pl, const char *remedy)
{
	if (!weights_error(buf, len, e) && !fill_error(buf, len, e))
		target_error(buf, len, e, pl, remedy);
}
