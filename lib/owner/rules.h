/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The admin's rules for the table's owner: who, besides root, may change
 * which nodes of the global table, and within which bounds
 * (/etc/numactl2/weights.conf, numactl2d(8)). Without a rule a user who is
 * not root may lease the weights in effect and change none. */
#ifndef NUMACTL2_OWNER_RULES_H
#define NUMACTL2_OWNER_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libnumactl2.h"

enum rule_who { RULE_USER, RULE_GROUP, RULE_ANYONE };

struct owner_rule {
	unsigned line;
	enum rule_who who;
	uint32_t id;			/* the uid or gid */
	struct bitmask *nodes;
	unsigned max_weight;
	unsigned max_sum;		/* 0: no bound */
	char text[120];			/* the rule as written */
};

struct owner_rules {
	char path[256];
	struct owner_rule *rule;
	unsigned n;
};

/* Who asks, as the socket says (SO_PEERCRED, SO_PEERGROUPS). */
struct owner_caller {
	uid_t uid;
	gid_t gid;
	gid_t *group;			/* every supplementary group (SO_PEERGROUPS) */
	unsigned ngroups;
};

/* A file that cannot be trusted or read: where and why. */
struct rules_error {
	unsigned line;
	int err;
	char why[160];
};

int owner_rules_load(const char *path, struct owner_rules *r, struct rules_error *e);
void owner_rules_free(struct owner_rules *r);
bool owner_rules_bind(const struct owner_caller *c, const bool *changes, unsigned count);
bool owner_rules_allow(const struct owner_rules *r, const struct owner_caller *c,
		       const uint8_t *ask, const uint8_t *held, const bool *changes, unsigned count,
		       char *why, size_t len, unsigned *node);

#endif
