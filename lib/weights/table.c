#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weights/table.h"

#define GW_SYSFS "/sys/kernel/mm/mempolicy/weighted_interleave"

#ifdef NUMACTL2_TEST_BUILD
/* Test build only (make test/bin/numactl2): NUMACTL2_SYSFS_WI points the
 * tool at a copy of the table, so host tests never write the real one. */
const char *gw_dir(void)
{
	const char *dir = getenv("NUMACTL2_SYSFS_WI");

	return dir && *dir ? dir : GW_SYSFS;
}
#else
const char *gw_dir(void)
{
	return GW_SYSFS;
}
#endif

bool gw_present(void)
{
	return access(gw_dir(), F_OK) == 0;
}

static void node_path(char *buf, size_t len, unsigned node)
{
	snprintf(buf, len, "%s/node%u", gw_dir(), node);
}

/* The nodes that have a weight file: every possible node on 6.9-6.15,
 * the online ones with memory from 6.16. Returns -errno if the directory
 * cannot be read. */
int gw_nodes(bool has[PARSE_MAX_NODES])
{
	DIR *dir = opendir(gw_dir());
	struct dirent *d;

	if (!dir)
		return -errno;
	memset(has, 0, PARSE_MAX_NODES * sizeof(has[0]));
	while ((d = readdir(dir))) {
		unsigned n;

		if (sscanf(d->d_name, "node%u", &n) == 1 && n < PARSE_MAX_NODES)
			has[n] = true;
	}
	closedir(dir);
	return 0;
}

/* A weight or auto file: never through a symlink, and only a regular file
 * (as sysfs attributes are), so a planted link or device is not written.
 * O_CLOEXEC is the caller's choice: a lease descriptor must survive exec. */
static int open_attr(const char *path, int flags)
{
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int gw_open_node(unsigned node, int flags)
{
	char path[512];

	node_path(path, sizeof(path), node);
	return open_attr(path, flags);
}

static int read_small_file(const char *path, char *buf, size_t len)
{
	int fd = open_attr(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int gw_read(unsigned node, unsigned *weight)
{
	char path[512], buf[32];
	unsigned long w;
	int rc;

	node_path(path, sizeof(path), node);
	rc = read_small_file(path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	if (parse_ulong(buf, WEIGHT_MAX, &w) < 0)
		return -EINVAL;
	/* 6.9-6.15 may show 0 for "system default", which is 1. */
	*weight = w ? (unsigned)w : 1;
	return 0;
}

/* Kernels from 6.16 call the switch "auto"; some 6.18 builds "__auto_type". */
static const char *auto_path(char *buf, size_t len)
{
	static const char *const names[] = { "auto", "__auto_type" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(buf, len, "%s/%s", gw_dir(), names[i]);
		if (access(buf, F_OK) == 0)
			return buf;
	}
	return NULL;
}

enum gw_auto gw_read_auto(void)
{
	char path[512], buf[16];

	if (!auto_path(path, sizeof(path)) || read_small_file(path, buf, sizeof(buf)) < 0)
		return GW_AUTO_ABSENT;
	if (strcmp(buf, "true") == 0)
		return GW_AUTO_ON;
	/* Anything but the kernel's two words is not a switch we know. */
	return strcmp(buf, "false") == 0 ? GW_AUTO_OFF : GW_AUTO_ABSENT;
}

/* Each write replaces the whole value, as on sysfs (where ftruncate() is a
 * no-op): the tests stand regular files in for sysfs. */
static int write_string(int fd, const char *s)
{
	ssize_t n;

	if (ftruncate(fd, 0) < 0)
		return -errno;
	n = pwrite(fd, s, strlen(s), 0);

	if (n < 0)
		return -errno;
	return (size_t)n == strlen(s) ? 0 : -EIO;
}

int gw_enable_auto(void)
{
	char path[512];
	int fd, rc;

	if (!auto_path(path, sizeof(path)))
		return -ENOENT;
	fd = open_attr(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	rc = write_string(fd, "true");
	close(fd);
	return rc;
}

/* Takes the lock that serializes numactl2 runs: flock() on the sysfs
 * directory itself, so no lock file has to exist anywhere. */
int gw_begin(struct gw_txn *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++)
		t->fd[i] = -1;
	t->dirfd = open(gw_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0)
		return -errno;
	if (flock(t->dirfd, LOCK_EX) < 0) {
		int rc = -errno;

		close(t->dirfd);
		t->dirfd = -1;
		return rc;
	}
	t->auto_before = gw_read_auto();
	return 0;
}

/* Opens nodeN for writing now, so that a missing file or a missing
 * privilege shows before any weight is written. */
int gw_stage(struct gw_txn *t, unsigned node, uint8_t weight)
{
	unsigned old;
	int rc;

	if (node >= PARSE_MAX_NODES)
		return -EINVAL;
	rc = gw_read(node, &old);
	if (rc < 0)
		return rc;
	t->fd[node] = gw_open_node(node, O_WRONLY | O_CLOEXEC);
	if (t->fd[node] < 0)
		return t->fd[node];
	t->old[node] = (uint8_t)old;
	t->new[node] = weight;
	return 0;
}

static int write_weight(int fd, uint8_t weight)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%u", weight);
	return write_string(fd, buf);
}

#ifdef NUMACTL2_TEST_BUILD
/* Test build only: NUMACTL2_TEST_FAIL_NODE=N makes the write of node N fail
 * with EIO, after the writes before it: the failure a kernel cannot be made
 * to produce on demand, and the one the rollback exists for. */
static int write_node(const struct gw_txn *t, unsigned node)
{
	const char *s = getenv("NUMACTL2_TEST_FAIL_NODE");
	unsigned long n;

	if (s && parse_ulong(s, PARSE_MAX_NODES - 1, &n) == 0 && n == node)
		return -EIO;
	return write_weight(t->fd[node], t->new[node]);
}
#else
static int write_node(const struct gw_txn *t, unsigned node)
{
	return write_weight(t->fd[node], t->new[node]);
}
#endif

int gw_commit(struct gw_txn *t, unsigned *failed_node)
{
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++) {
		int rc;

		if (t->fd[i] < 0)
			continue;
		rc = write_node(t, i);
		if (rc < 0) {
			*failed_node = i;
			gw_rollback(t);
			return rc;
		}
		t->written[i] = true;
	}
	return 0;
}

/* Puts back every staged node; restoring auto mode recomputes the same
 * weights the kernel had before. Best effort: it is already the error path. */
void gw_rollback(struct gw_txn *t)
{
	bool any = false;

	for (unsigned i = 0; i < PARSE_MAX_NODES; i++) {
		if (!t->written[i])
			continue;
		(void)write_weight(t->fd[i], t->old[i]);
		t->written[i] = false;
		any = true;
	}
	if (any && t->auto_before == GW_AUTO_ON)
		(void)gw_enable_auto();
}

void gw_end(struct gw_txn *t)
{
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++)
		if (t->fd[i] >= 0)
			close(t->fd[i]);
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
}

/* "node0 1->9, node1 1->1" */
void gw_describe(const struct gw_txn *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < PARSE_MAX_NODES && used < len; i++) {
		if (t->fd[i] < 0)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%snode%u %u->%u",
					 used ? ", " : "", i, t->old[i], t->new[i]);
	}
}
