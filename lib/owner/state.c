// SPDX-License-Identifier: GPL-2.0-or-later
/* The state file, as text: "numactl2d-state 1", the boot id, the auto
 * switch, "base NODE WEIGHT" for each changed node, and "grant PID START
 * UID NODE:WEIGHT,..." for each holder. Written whole to the file beside
 * it (PATH.new) and swapped with it in one step, so a crash of the service
 * leaves the old or the new one whole. A holder is taken back only if the
 * same process (PID and start time) still runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "owner/state.h"
#include "owner/jobs.h"
#include "syscalls.h"
#include "sysfile/sysfile.h"

#define STATE_MAGIC "numactl2d-state 1"


/* The file's text, grown as it is written. */
struct text {
	char *buf;
	size_t len, cap;
	int err;
};

/* Room for NEED more bytes and a '\0'; false (t->err) without memory. */
static bool room(struct text *t, size_t need)
{
	size_t cap = t->cap ? t->cap : 256;
	char *grown;

	if (t->err)
		return false;
	if (t->len + need < t->cap)
		return true;
	while (cap <= t->len + need)
		cap *= 2;
	grown = realloc(t->buf, cap);
	if (!grown) {
		t->err = -ENOMEM;
		return false;
	}
	t->buf = grown;
	t->cap = cap;
	return true;
}

static void __attribute__((format(printf, 2, 3))) add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !room(t, (size_t)n))
		return;
	va_start(ap, fmt);
	t->len += (size_t)vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
}

static void add_bytes(struct text *t, const char *s, size_t n)
{
	if (!room(t, n))
		return;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* G's line, "grant PID START UID NODE:WEIGHT,...\n", made at the first
 * save that has G and kept in it (g->line) until its holds change: a
 * save formats what changed, and copies the rest. */
static int grant_line(struct grant *g)
{
	struct text t = { 0 };

	if (g->line)
		return 0;
	add(&t, "grant %d %llu %u ", (int)g->pid, g->start, (unsigned)g->uid);
	for (unsigned h = 0; h < g->nholds; h++)
		add(&t, "%s%u:%u", h ? "," : "", g->hold[h].node, g->hold[h].weight);
	add(&t, "\n");
	if (t.err) {
		free(t.buf);
		return t.err;
	}
	g->line = t.buf;
	g->linelen = t.len;
	return 0;
}

static int compose(struct text *t, const struct owner_book *b, const char *boot)
{
	add(t, "%s\nboot %s\nauto %d\n", STATE_MAGIC, boot, b->base_auto);
	for (unsigned n = 0; n < b->count; n++)
		if (b->changed[n])
			add(t, "base %u %u\n", n, b->base[n]);
	for (unsigned i = 0; i < b->ngrants && !t->err; i++) {
		struct grant *g = b->grant[i];
		int rc = grant_line(g);

		if (rc < 0)
			return rc;
		add_bytes(t, g->line, g->linelen);
	}
	return t->err;
}

/* The file a save is written to, TMP: the one the last save swapped out
 * (the state before it), reused while it is still this owner's own regular
 * file, or made anew. A new inode at each change is what ext4 makes dear:
 * it skips the ones deleted lately, one by one; and so are blocks freed and
 * taken again: the text is written over the old one, and only the rest
 * cut (write_spare()). */
static int open_spare(const char *tmp, off_t *size)
{
	struct stat st;
	int fd = open(tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    !(st.st_mode & 077) && st.st_nlink == 1) {
		*size = st.st_size;
		return fd;
	}
	if (fd >= 0)
		close(fd);
	(void)unlink(tmp);
	*size = 0;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

/* T over the spare's old text (SIZE long), the rest of that cut. */
static int write_spare(int fd, const struct text *t, off_t size)
{
	int rc = sysfile_write_all(fd, t->buf, t->len);

	if (rc == 0 && size > (off_t)t->len && ftruncate(fd, (off_t)t->len) < 0)
		rc = -errno;
	return rc;
}

/* TMP, whole, in PATH's place at once: exchanged with it, so that the next
 * save reuses the old one; renamed over it where there is none yet, or
 * where the filesystem cannot exchange (EINVAL). */
static int put_in_place(const char *tmp, const char *path)
{
	if (sys_renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0)
		return 0;
	if (errno != ENOENT && errno != EINVAL)
		return -errno;
	return rename(tmp, path) < 0 ? -errno : 0;
}

int state_save(const char *path, const struct owner_book *b)
{
	struct text t = { 0 };
	char tmp[512], boot[64];
	off_t size;
	int fd, rc = sysfile_boot_id(boot, sizeof(boot));

	if (rc == 0)
		rc = compose(&t, b, boot);
	if (rc < 0) {
		free(t.buf);
		return rc;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open_spare(tmp, &size);
	/* No fsync(): the file must outlive the service, not the machine; after
	 * a crash of the machine the boot id drops it anyway. */
	rc = fd < 0 ? fd : write_spare(fd, &t, size);
	free(t.buf);
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0)
		rc = put_in_place(tmp, path);
	if (rc < 0 && fd >= 0)
		(void)unlink(tmp);
	return rc;
}

/* "NODE:WEIGHT,..." into WEIGHT, per node. */
static int load_weights(const struct owner_book *b, char *list, uint8_t *weight)
{
	char *save = NULL;

	for (char *t = strtok_r(list, ",\n", &save); t; t = strtok_r(NULL, ",\n", &save)) {
		unsigned n, w;

		if (sscanf(t, "%u:%u", &n, &w) != 2 || n >= b->count || !w || w > 255)
			return -EBADMSG;
		weight[n] = (uint8_t)w;
	}
	return 0;
}

/* A holder of the file, taken back if its job still runs: 1, or 0 when
 * it has gone (its nodes then go back, as at any job's end). */
static int load_grant(struct owner_book *b, char *line)
{
	struct grant *g;
	char list[8192];
	uint8_t *weight;
	int pid;
	unsigned long long start;
	unsigned uid;
	int rc;

	if (sscanf(line, "grant %d %llu %u %8191s", &pid, &start, &uid, list) != 4 || pid <= 0)
		return -EBADMSG;
	/* A holder of no node holds nothing. */
	rc = grant_new(pid, &g);
	if (rc < 0)
		return rc == -ESRCH ? 0 : rc;
	weight = calloc(b->count, 1);
	if (!weight) {
		grant_free(g);
		return -ENOMEM;
	}
	/* Its pid and start time name the job; the uid is the asker's, as
	 * saved: a job may have changed its own since (setpriv, a setuid
	 * program), and still holds. */
	g->uid = uid;
	if (g->start != start || load_weights(b, list, weight) < 0) {
		grant_free(g);
		free(weight);
		return 0;
	}
	rc = grant_keep(b, g, weight);
	free(weight);
	return rc < 0 ? rc : 1;
}

static int load_line(struct owner_book *b, char *line, unsigned *gone)
{
	unsigned n, w;
	int a, rc;

	if (sscanf(line, "auto %d", &a) == 1) {
		b->base_auto = a;
		return 0;
	}
	if (sscanf(line, "base %u %u", &n, &w) == 2) {
		if (n >= b->count || !w || w > 255)
			return -EBADMSG;
		b->base[n] = (uint8_t)w;
		b->changed[n] = true;
		return 0;
	}
	rc = load_grant(b, line);
	*gone += rc == 0;
	return rc;
}

/* The lines after the header: one that is not understood is skipped and
 * counted (the rest of the file still counts). A holder that could not be
 * checked (no memory, no descriptor left) stops the load: dropped, its
 * weights would go back while it runs. */
static int load_lines(FILE *f, struct owner_book *b, struct state_loaded *how)
{
	char line[9000];

	while (fgets(line, sizeof(line), f)) {
		int rc = load_line(b, line, &how->gone);

		if (rc < 0 && rc != -EBADMSG)
			return rc;
		how->bad += rc < 0;
	}
	return 0;
}

static int load_from(FILE *f, struct owner_book *b, struct state_loaded *how)
{
	char line[128], boot[64], id[64];
	int rc = sysfile_boot_id(id, sizeof(id));

	if (rc < 0)
		return rc;
	how->how = STATE_UNREADABLE;
	if (!fgets(line, sizeof(line), f) || strncmp(line, STATE_MAGIC "\n", sizeof(STATE_MAGIC)))
		return 0;
	if (!fgets(line, sizeof(line), f) || sscanf(line, "boot %63s", boot) != 1)
		return 0;
	if (strcmp(boot, id) != 0) {
		how->how = STATE_OTHER_BOOT;
		return 0;
	}
	how->how = STATE_LOADED;
	return load_lines(f, b, how);
}

/* The file must be root's, a regular file, written by root alone. */
int state_load(const char *path, struct owner_book *b, struct state_loaded *how)
{
	struct stat st;
	FILE *f;
	int fd, rc;

	*how = (struct state_loaded){ .how = STATE_NONE };
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		close(fd);
		return -EPERM;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	rc = load_from(f, b, how);
	fclose(f);
	return rc;
}
