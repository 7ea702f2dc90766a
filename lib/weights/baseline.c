// SPDX-License-Identifier: GPL-2.0-or-later
/* The baseline (this file owns it): the global table as it was before the
 * first job that changed it, every nodeN weight and the kernel's auto
 * switch, kept in BASELINE_DIR/baseline until the last job that needs a
 * weight that differs from it has ended; then baseline_settle() writes it
 * back and removes it. Every step runs under the table's directory lock
 * (table.c): the first job's run saves it (txn.c), an admin's change and
 * --keep-weights redefine it (txn.c, admin.c), and the watcher at a job's
 * end (lib/job/watcher.c), the Slurm plugin at a step's end and any run
 * that changes the table (txn.c) settle it.
 *
 * Who needs the table as it is: whoever leases a node whose weight differs
 * from the baseline (lease.c): a live process its record names (record.c,
 * by PID and start time), or a process that keeps the lease descriptor
 * open. A job is, for this as for its lease, the process numactl2 execs and
 * whatever it forked that keeps that descriptor: a child that keeps it
 * keeps the weights until it ends (`sh -c '(sleep 2)& exit 0'` has them
 * back 2 s after sh exits), one that closes it (daemon(3), close_range)
 * does not, so a job's descendants hold the table no longer than they hold
 * its lease. A job on nodes at their baseline weights needs nothing put
 * back: the baseline is what it has.
 *
 * Where: /run/numactl2, a tmpfs emptied at boot like the table itself. Only
 * root can write the table, so only root ever writes a baseline, and only
 * one that root owns is trusted: the directory root's and writable by root
 * alone, the file root's, a regular file with one link, never reached
 * through a symlink. Anything else is refused, not read. The test build
 * keeps it in NUMACTL2_BASELINE_DIR, else beside its copy of the table. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfile/sysfile.h"
#include "weights/baseline.h"
#include "weights/holders.h"

#define BASELINE_DIR "/run/numactl2"
#define BASELINE_NAME "baseline"
#define BASELINE_NEW "baseline.new"
#define BASELINE_MAGIC "numactl2 baseline 2"
/* A line per node: "node 1023 255\n" is 14 bytes. */
#define BASELINE_MAX (64 + PARSE_MAX_NODES * 16)

#ifdef NUMACTL2_TEST_BUILD
#include <libgen.h>

/* Test build only: NUMACTL2_BASELINE_DIR, else numactl2/ beside the copy of
 * the table (NUMACTL2_SYSFS_WI), so that tests share no baseline. */
const char *baseline_dir(void)
{
	static char dir[600];
	const char *set = getenv("NUMACTL2_BASELINE_DIR"), *wi = getenv("NUMACTL2_SYSFS_WI");
	char parent[512];

	if (set && *set)
		return set;
	if (!wi || !*wi)
		return BASELINE_DIR;
	snprintf(parent, sizeof(parent), "%s", wi);
	snprintf(dir, sizeof(dir), "%s/numactl2", dirname(parent));
	return dir;
}

/* Test build only: the tests' files are the tester's own. */
static bool trusted_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}
#else
const char *baseline_dir(void)
{
	return BASELINE_DIR;
}

static bool trusted_owner(uid_t uid)
{
	return uid == 0;
}
#endif

/* Owned by root (the test build: or the tester), writable by the owner alone. */
static bool trusted(const struct stat *st)
{
	return trusted_owner(st->st_uid) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* The directory, made (0755) when CREATE: -errno, -EPERM when untrusted. */
static int open_dir(bool create)
{
	struct stat st;
	int fd;

	if (create && mkdir(baseline_dir(), 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = open(baseline_dir(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) || !trusted(&st)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* The baseline file for reading: -ENOENT when there is none, -EPERM when it
 * is not one root made (another owner, a link, a second name). */
static int open_file(int dir)
{
	int fd = openat(dir, BASELINE_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 || !trusted(&st)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

void baseline_free(struct baseline *b)
{
	free(b->weight);
	b->weight = NULL;
	b->count = 0;
}

static int baseline_alloc(struct baseline *b)
{
	b->count = gw_node_count();
	b->weight = calloc(b->count, sizeof(b->weight[0]));
	b->auto_mode = GW_AUTO_ABSENT;
	return b->weight ? 0 : -ENOMEM;
}

/* The table now: 0 or -errno. */
static int snapshot(struct baseline *b)
{
	bool *has;
	int rc = baseline_alloc(b);

	has = calloc(b->count, sizeof(*has));
	if (rc == 0 && !has)
		rc = -ENOMEM;
	if (rc == 0)
		rc = gw_nodes(has, b->count);
	for (unsigned n = 0; rc == 0 && n < b->count; n++) {
		unsigned w;

		if (has[n] && gw_read(n, &w) == 0)
			b->weight[n] = (uint8_t)w;
	}
	free(has);
	b->auto_mode = gw_read_auto();
	if (rc < 0)
		baseline_free(b);
	return rc;
}

static const char *auto_word(enum gw_auto a)
{
	return a == GW_AUTO_ON ? "on" : a == GW_AUTO_OFF ? "off" : "absent";
}

/* The boot line: -ESTALE when it is another boot's. A baseline of another
 * boot (or of version 1, which had no boot line) describes a table that is
 * gone: putting it back would undo the settings this boot started with. */
static int parse_boot(char *line)
{
	char boot[64], id[64];
	int end = 0;

	if (!line || sscanf(line, "boot %63s%n", boot, &end) != 1 || line[end])
		return -EINVAL;
	if (sysfile_boot_id(id, sizeof(id)) < 0 || strcmp(boot, id) != 0)
		return -ESTALE;
	return 0;
}

/* "numactl2 baseline 2\nboot ID\nauto on\nnode 0 1\n...": 0, -ESTALE for
 * another boot's (or version 1's), -EINVAL for anything else. */
static int parse(char *text, struct baseline *b)
{
	char *line, *save = NULL, word[8];
	unsigned node, w;
	int end, rc;

	line = strtok_r(text, "\n", &save);
	if (line && strcmp(line, "numactl2 baseline 1") == 0)
		return -ESTALE;
	if (!line || strcmp(line, BASELINE_MAGIC) != 0)
		return -EINVAL;
	rc = parse_boot(strtok_r(NULL, "\n", &save));
	if (rc < 0)
		return rc;
	line = strtok_r(NULL, "\n", &save);
	if (!line || sscanf(line, "auto %7s%n", word, &end) != 1 || line[end])
		return -EINVAL;
	if (strcmp(word, "on") == 0)
		b->auto_mode = GW_AUTO_ON;
	else if (strcmp(word, "off") == 0)
		b->auto_mode = GW_AUTO_OFF;
	else if (strcmp(word, "absent") != 0)
		return -EINVAL;
	while ((line = strtok_r(NULL, "\n", &save))) {
		end = 0;
		if (sscanf(line, "node %u %u%n", &node, &w, &end) != 2 || line[end] ||
		    node >= b->count || w < 1 || w > WEIGHT_MAX)
			return -EINVAL;
		b->weight[node] = (uint8_t)w;
	}
	return 0;
}

static int read_text(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	return got == len - 1 ? -EFBIG : 0;
}

/* 1 with *b filled (baseline_free() it), 0 when there is no baseline, or
 * -errno (-EPERM: one not to trust, -EINVAL: one not ours). */
int baseline_read(struct baseline *b)
{
	int dir = open_dir(false), fd, rc;
	char *text;

	memset(b, 0, sizeof(*b));
	/* A directory not to trust holds nothing to read; saving there fails,
	 * and the job's notice says so. */
	if (dir < 0)
		return dir == -ENOENT || dir == -EPERM ? 0 : dir;
	fd = open_file(dir);
	close(dir);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	text = malloc(BASELINE_MAX);
	rc = text ? read_text(fd, text, BASELINE_MAX) : -ENOMEM;
	close(fd);
	if (rc == 0)
		rc = baseline_alloc(b);
	if (rc == 0)
		rc = parse(text, b);
	free(text);
	if (rc < 0)
		baseline_free(b);
	return rc < 0 ? rc : 1;
}

static int format(const struct baseline *b, char *buf, size_t len)
{
	char boot[64];
	size_t used;

	if (sysfile_boot_id(boot, sizeof(boot)) < 0)
		return -EIO;
	used = (size_t)snprintf(buf, len, BASELINE_MAGIC "\nboot %s\nauto %s\n", boot,
				auto_word(b->auto_mode));

	for (unsigned n = 0; n < b->count && used < len; n++)
		if (b->weight[n])
			used += (size_t)snprintf(buf + used, len - used, "node %u %u\n", n,
						 b->weight[n]);
	return used < len ? (int)used : -EFBIG;
}

/* Writes B as the baseline, whole or not at all: a new file, renamed over
 * the old one. 0 or -errno. */
int baseline_write(const struct baseline *b)
{
	char *text = malloc(BASELINE_MAX);
	int dir, fd, len, rc;

	if (!text)
		return -ENOMEM;
	len = format(b, text, BASELINE_MAX);
	dir = len < 0 ? len : open_dir(true);
	if (dir < 0) {
		free(text);
		return dir;
	}
	(void)unlinkat(dir, BASELINE_NEW, 0);
	fd = openat(dir, BASELINE_NEW, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	rc = fd < 0 ? -errno : sysfile_write_all(fd, text, (size_t)len);
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && renameat(dir, BASELINE_NEW, dir, BASELINE_NAME) < 0)
		rc = -errno;
	if (rc < 0 && fd >= 0)
		(void)unlinkat(dir, BASELINE_NEW, 0);
	close(dir);
	free(text);
	return rc;
}

/* The table as it is now becomes the baseline, unless there is one:
 * 1 when saved, 0 when there was one, or -errno. */
int baseline_save(void)
{
	struct baseline b;
	int rc = baseline_read(&b);

	baseline_free(&b);
	/* One that is root's but not in our format was never a table, and one of
	 * another boot is not this boot's table: replaced. */
	if (rc != 0 && rc != -EINVAL && rc != -ESTALE)
		return rc < 0 ? rc : 0;
	rc = snapshot(&b);
	if (rc == 0)
		rc = baseline_write(&b);
	baseline_free(&b);
	return rc < 0 ? rc : 1;
}

bool baseline_present(void)
{
	struct baseline b;
	int rc = baseline_read(&b);

	baseline_free(&b);
	return rc > 0;
}

/* Is there a baseline to trust, that this process could put back? Only
 * root can (the test build: the tester). */
bool baseline_writable(void)
{
	int dir = open_dir(false), fd;
	bool ok;

	if (dir < 0)
		return false;
	fd = open_file(dir);
	ok = fd >= 0 && faccessat(dir, BASELINE_NAME, W_OK, AT_EACCESS) == 0;
	if (fd >= 0)
		close(fd);
	close(dir);
	return ok;
}

void baseline_remove(void)
{
	int dir = open_dir(false);

	if (dir < 0)
		return;
	(void)unlinkat(dir, BASELINE_NAME, 0);
	close(dir);
}
