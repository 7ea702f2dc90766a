// SPDX-License-Identifier: GPL-2.0-or-later
/* The admin's rules, read once at the service's start: a line a rule,
 * "WHO NODES MAX-WEIGHT MAX-SUM", as limits.conf is written. The file must
 * be root's and written by root alone: it decides what other users may do. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <numa.h>

#include "owner/rules.h"
#include "parse.h"

static int bad(struct rules_error *e, unsigned line, const char *why, const char *item)
{
	e->line = line;
	e->err = EINVAL;
	snprintf(e->why, sizeof(e->why), "%s '%.60s'", why, item);
	return -EINVAL;
}

static int parse_who(const char *s, struct owner_rule *rl)
{
	if (strcmp(s, "*") == 0) {
		rl->who = RULE_ANYONE;
		return 0;
	}
	if (s[0] == '@') {
		struct group *g = getgrnam(s + 1);

		if (!g)
			return -ENOENT;
		rl->who = RULE_GROUP;
		rl->id = g->gr_gid;
		return 0;
	}
	struct passwd *p = getpwnam(s);

	if (!p)
		return -ENOENT;
	rl->who = RULE_USER;
	rl->id = p->pw_uid;
	return 0;
}

static int parse_bound(const char *s, unsigned long max, bool dash_ok, unsigned *out)
{
	unsigned long v;

	if (dash_ok && strcmp(s, "-") == 0) {
		*out = 0;
		return 0;
	}
	if (nc2_parse_ulong(s, max, &v) < 0 || v == 0)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int parse_nodes(char *s, struct owner_rule *rl)
{
	struct parse_err pe;

	if (nc2_parse_node_list(s, &pe) < 0 || s[0] == '!' || s[0] == '+')
		return -EINVAL;
	rl->nodes = numa_parse_nodestring_all(s);
	return rl->nodes ? 0 : -EINVAL;
}

/* One rule's four fields; a line of another shape is an error, never
 * skipped: a rule the admin wrote and the service ignored would be worse. */
static int parse_rule(char *line, unsigned no, struct owner_rule *rl, struct rules_error *e)
{
	char *f[5], *save = NULL;
	unsigned n = 0;

	snprintf(rl->text, sizeof(rl->text), "%s", line);
	for (char *t = strtok_r(line, " \t", &save); t && n < 5; t = strtok_r(NULL, " \t", &save))
		f[n++] = t;
	rl->line = no;
	if (n != 4)
		return bad(e, no, "a rule is WHO NODES MAX-WEIGHT MAX-SUM, not", rl->text);
	if (parse_who(f[0], rl) < 0)
		return bad(e, no, "no such user or group", f[0]);
	if (parse_nodes(f[1], rl) < 0)
		return bad(e, no, "invalid node list", f[1]);
	if (parse_bound(f[2], WEIGHT_MAX, false, &rl->max_weight) < 0)
		return bad(e, no, "invalid largest weight (1-255)", f[2]);
	if (parse_bound(f[3], WEIGHT_MAX * PARSE_MAX_NODES, true, &rl->max_sum) < 0)
		return bad(e, no, "invalid largest sum (a number or -)", f[3]);
	return 0;
}

/* The text of a line: comment and surrounding blanks off; NULL when empty. */
static char *content(char *line)
{
	char *end;

	line[strcspn(line, "#\n")] = '\0';
	line += strspn(line, " \t");
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return *line ? line : NULL;
}

static int add_rule(struct owner_rules *r, char *text, unsigned no, struct rules_error *e)
{
	struct owner_rule *grown = realloc(r->rule, (r->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	r->rule = grown;
	memset(&r->rule[r->n], 0, sizeof(r->rule[0]));
	if (parse_rule(text, no, &r->rule[r->n], e) < 0) {
		if (r->rule[r->n].nodes)
			numa_bitmask_free(r->rule[r->n].nodes);
		return -EINVAL;
	}
	r->n++;
	return 0;
}

static int trusted(int fd, struct rules_error *e)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		e->err = EPERM;
		snprintf(e->why, sizeof(e->why), "not a regular file that root alone can write");
		return -EPERM;
	}
	return 0;
}

static int read_rules(FILE *f, struct owner_rules *r, struct rules_error *e)
{
	char buf[512];
	unsigned no = 0;
	int rc = 0;

	while (rc == 0 && fgets(buf, sizeof(buf), f)) {
		char *text;

		no++;
		if (!strchr(buf, '\n') && !feof(f))
			return bad(e, no, "line too long:", buf);
		text = content(buf);
		if (text)
			rc = add_rule(r, text, no, e);
	}
	return rc;
}

/* No file is no rule. */
int owner_rules_load(const char *path, struct owner_rules *r, struct rules_error *e)
{
	int fd, rc;
	FILE *f;

	memset(r, 0, sizeof(*r));
	memset(e, 0, sizeof(*e));
	snprintf(r->path, sizeof(r->path), "%s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 0 : (e->err = errno, -errno);
	rc = trusted(fd, e);
	f = rc == 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		close(fd);
		return rc < 0 ? rc : -errno;
	}
	rc = read_rules(f, r, e);
	fclose(f);
	if (rc < 0)
		owner_rules_free(r);
	return rc;
}

void owner_rules_free(struct owner_rules *r)
{
	for (unsigned i = 0; i < r->n; i++)
		numa_bitmask_free(r->rule[i].nodes);
	free(r->rule);
	r->rule = NULL;
	r->n = 0;
}

static bool matches(const struct owner_rule *rl, const struct owner_caller *c)
{
	if (rl->who == RULE_ANYONE)
		return true;
	if (rl->who == RULE_USER)
		return rl->id == c->uid;
	if (rl->id == c->gid)
		return true;
	for (unsigned i = 0; i < c->ngroups; i++)
		if (c->group[i] == rl->id)
			return true;
	return false;
}

static bool covers(const struct owner_rule *rl, const bool *changes, unsigned count)
{
	for (unsigned n = 0; n < count; n++)
		if (changes[n] && (n >= rl->nodes->size || !numa_bitmask_isbitset(rl->nodes, n)))
			return false;
	return true;
}

/* The first rule for this caller that names every changed node decides.
 * The sum is of every weight the user would hold: this ask's, and on other
 * nodes what the user's other jobs hold (HELD), so that asks one node at a
 * time add up as one would. A sum too large names no node of its own: NODE
 * stays the first one the ask changes. */
static bool within(const struct owner_rule *rl, const uint8_t *ask, const uint8_t *held,
		   const bool *changes, unsigned count, char *why, size_t len, unsigned *node)
{
	unsigned sum = 0;

	for (unsigned n = 0; n < count; n++) {
		sum += ask[n] > held[n] ? ask[n] : held[n];
		if (changes[n] && ask[n] > rl->max_weight) {
			*node = n;
			snprintf(why, len, "line %u (%s): node %u may be given at most %u",
				 rl->line, rl->text, n, rl->max_weight);
			return false;
		}
	}
	if (rl->max_sum && sum > rl->max_sum) {
		snprintf(why, len, "line %u (%s): the weights may add up to at most %u, not %u",
			 rl->line, rl->text, rl->max_sum, sum);
		return false;
	}
	return true;
}

static unsigned first_change(const bool *changes, unsigned count)
{
	for (unsigned n = 0; n < count; n++)
		if (changes[n])
			return n;
	return count;
}

/* Whether the rules have a say on C's ask, which changes the nodes in
 * CHANGES: root may change any node, and anyone may hold weights in
 * effect. Only then does owner_rules_allow() weigh what C's other jobs
 * hold, which its caller need not gather otherwise. */
bool owner_rules_bind(const struct owner_caller *c, const bool *changes, unsigned count)
{
	return c->uid != 0 && first_change(changes, count) < count;
}

/* May C hold ASK (a weight per node, 0 for none asked), which changes the
 * nodes in CHANGES, beside what C's other jobs hold (HELD, read only where
 * owner_rules_bind())? A refusal says why in WHY, with the node concerned. */
bool owner_rules_allow(const struct owner_rules *r, const struct owner_caller *c,
		       const uint8_t *ask, const uint8_t *held, const bool *changes, unsigned count,
		       char *why, size_t len, unsigned *node)
{
	unsigned first = first_change(changes, count);

	if (!owner_rules_bind(c, changes, count))
		return true;
	*node = first;
	for (unsigned i = 0; i < r->n; i++)
		if (matches(&r->rule[i], c) && covers(&r->rule[i], changes, count))
			return within(&r->rule[i], ask, held, changes, count, why, len, node);
	snprintf(why, len, "no rule in %s lets this user change node %u", r->path, first);
	return false;
}
