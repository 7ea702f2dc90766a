// SPDX-License-Identifier: GPL-2.0-or-later
/* Every way a request can fail (lib/request), worded once for the CLI and
 * the Slurm plugin. */
#include <stdio.h>
#include <string.h>

#include "msg/messages.h"
#include "msg/reqerror.h"

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

/* What the table's owner (numactl2d) answered, in one line. */
static void owner_error(char *buf, size_t len, const struct request_error *e)
{
	const struct owner_refused *o = &e->owner;

	switch (o->said) {
	case OWNER_SAID_RULE:
		snprintf(buf, len, "numactl2d refused to change node %u: %s", e->node, o->text);
		break;
	case OWNER_SAID_HELD:
		snprintf(buf, len, "node %u is held at weight %u by PID %u (%s, uid %u) through "
			 "numactl2d; --wait waits for it", e->node, o->held, o->pid, o->text, o->uid);
		break;
	case OWNER_SAID_LIMIT:
		snprintf(buf, len, "numactl2d refused: %s", o->text);
		break;
	case OWNER_SAID_UNSAVED:
		snprintf(buf, len, "numactl2d cannot save its state (%s): nothing changed",
			 strerror(e->err));
		break;
	case OWNER_SAID_UNWRITTEN:
		snprintf(buf, len, "numactl2d cannot write node %u (%s): nothing changed", e->node,
			 strerror(e->err));
		break;
	case OWNER_SAID_BAD:
		snprintf(buf, len, "numactl2d did not take the request: %s", o->text);
		break;
	case OWNER_SAID_AUTO_LOST:
		snprintf(buf, len, "numactl2d refused: %s; as root, --keep-weights makes the "
			 "change for good", o->text);
		break;
	default:
		snprintf(buf, len, "no answer from numactl2d: %s", strerror(e->err));
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
		msg_global_refused(buf, len, &e->table, -e->err, &e->conflict, e->node, remedy);
		break;
	case REQ_PREFERRED_MANY:
		snprintf(buf, len, "--preferred-many needs Linux 5.15 or later");
		break;
	case REQ_OWNER:
		owner_error(buf, len, e);
		break;
	case REQ_BASELINE_UNSAVED:
		snprintf(buf, len, "cannot keep the global table as it was in %s (%s), so the "
			 "job's weights could not go back after it: nothing changed "
			 "(--keep-weights changes it for good)", lib_place(LIB_BASELINE),
			 strerror(e->err));
		break;
	default:
		snprintf(buf, len, "cannot set %s policy: %s", policy_name(e->mode),
			 strerror(e->err));
	}
}

void msg_request_error(char *buf, size_t len, const struct request_error *e,
		       const struct plan *pl, const char *remedy)
{
	if (!weights_error(buf, len, e))
		target_error(buf, len, e, pl, remedy);
}
