// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2d's holders as --show and --hardware print them: a line each,
 * after numactl's lines (scripts that read those see no change), or JSON.
 * The service escapes each job's name before it sends it. */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "owner/server.h"
#include "owner/wire.h"

struct list_print {
	FILE *out;
	bool json;
	unsigned n;
};

static void print_user(FILE *out, uint32_t uid, bool json)
{
	struct passwd *p = getpwuid(uid);

	if (p && json)
		fprintf(out, "\"%s\"", p->pw_name);
	else if (p)
		fputs(p->pw_name, out);
	else
		fprintf(out, json ? "null" : "%u", uid);
}

/* A name as the service sent it (printable ASCII, '\' escapes) in JSON. */
static void print_json_name(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_weights(FILE *out, const uint8_t *w, bool json)
{
	const char *sep = "";

	for (unsigned n = 0; n < OWNER_NODES; n++) {
		if (!w[n])
			continue;
		fprintf(out, json ? "%s\"%u\": %u" : "%s%u:%u", sep, n, w[n]);
		sep = json ? ", " : ",";
	}
}

static void print_holder(const struct owner_answer *a, void *arg)
{
	struct list_print *p = arg;

	if (p->json) {
		fprintf(p->out, "%s\n    {\"pid\": %u, \"uid\": %u, \"user\": ", p->n ? "," : "",
			a->pid, a->uid);
		print_user(p->out, a->uid, true);
		fputs(", \"command\": ", p->out);
		print_json_name(p->out, a->text);
		fputs(", \"weights\": {", p->out);
		print_weights(p->out, a->was, true);
		fputs("}}", p->out);
	} else {
		fprintf(p->out, "interleave weight holder: pid %u user ", a->pid);
		print_user(p->out, a->uid, false);
		fprintf(p->out, " command %s weights ", a->text);
		print_weights(p->out, a->was, false);
		fputc('\n', p->out);
	}
	p->n++;
}

/* Each holder numactl2d has, or where none listens each of root's own
 * owner's state file (root's alone to read), to EACH: 0, or -errno when
 * they cannot be had; a user who is not root, with no service, gets none
 * and 0. */
int owner_each_holder(void (*each)(const struct owner_answer *a, void *arg), void *arg)
{
	int rc = owner_list(OWNER_ASK_TIMEOUT_MS, each, arg);

	if ((rc == -ENOENT || rc == -ECONNREFUSED) && geteuid() == 0)
		rc = owner_list_here(each, arg);
	return rc == -ENOENT || rc == -ECONNREFUSED ? 0 : rc;
}

/* The holders, a line each; JSON: '"holders": [...]'. */
int owner_print_holders(FILE *out, bool json)
{
	struct list_print p = { .out = out, .json = json };
	int rc;

	if (json)
		fputs("\"holders\": [", out);
	rc = owner_each_holder(print_holder, &p);
	if (json)
		fputs(p.n ? "\n  ]" : "]", out);
	return rc;
}
