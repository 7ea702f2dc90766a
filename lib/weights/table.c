// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's global weight table as files: reading and writing
 * /sys/kernel/mm/mempolicy/weighted_interleave/nodeN and its auto switch,
 * and the directory lock. The lowest layer of lib/weights: it knows nothing
 * of leases or transactions. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <numa.h>

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
int gw_nodes(bool *has, unsigned count)
{
	DIR *dir = opendir(gw_dir());
	struct dirent *d;

	if (!dir)
		return -errno;
	memset(has, 0, count * sizeof(has[0]));
	while ((d = readdir(dir))) {
		unsigned n;

		if (sscanf(d->d_name, "node%u", &n) == 1 && n < count)
			has[n] = true;
	}
	closedir(dir);
	return 0;
}

static unsigned possible_nodes(void)
{
	int max = numa_max_possible_node();

	return max < 0 ? 1 : (unsigned)max + 1;
}

#ifdef NUMACTL2_TEST_BUILD
/* Test build only: a copy of the table may name nodes this machine cannot
 * have; the per-node tables must reach its highest nodeN file too. */
unsigned gw_node_count(void)
{
	unsigned count = possible_nodes();
	DIR *dir = opendir(gw_dir());
	struct dirent *d;

	if (!dir)
		return count;
	while ((d = readdir(dir))) {
		unsigned n;

		if (sscanf(d->d_name, "node%u", &n) == 1 && n < PARSE_MAX_NODES && n >= count)
			count = n + 1;
	}
	closedir(dir);
	return count;
}
#else
unsigned gw_node_count(void)
{
	return possible_nodes();
}
#endif

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
	*weight = weight_effective((unsigned)w);
	return 0;
}

/* Kernels from 6.16 call the switch "auto"; some 6.18 builds "__auto_type". */
static const char *auto_path(char *buf, size_t len)
{
	/* Arrays, not pointers: a pointer is a relocation at every start (bench/overhead). */
	static const char names[][sizeof("__auto_type")] = { "auto", "__auto_type" };

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

/* The lock that serializes numactl2 runs: flock() on the sysfs directory
 * itself, so no lock file has to exist anywhere. Returns the locked
 * directory's descriptor (close it to unlock) or -errno. */
int gw_lock_table(void)
{
	int fd = open(gw_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

static int write_weight(int fd, unsigned weight)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%u", weight);
	return write_string(fd, buf);
}

#ifdef NUMACTL2_TEST_BUILD
/* Writes NODE's weight through FD (opened by gw_open_node()).
 * Test build only: NUMACTL2_TEST_FAIL_NODE=N makes the write of node N fail
 * with EIO, after the writes before it: the failure a kernel cannot be made
 * to produce on demand, and the one the rollback exists for. */
int gw_write(int fd, unsigned node, unsigned weight)
{
	const char *s = getenv("NUMACTL2_TEST_FAIL_NODE");
	unsigned long n;

	if (s && parse_ulong(s, UINT_MAX, &n) == 0 && n == node)
		return -EIO;
	return write_weight(fd, weight);
}
#else
int gw_write(int fd, unsigned node, unsigned weight)
{
	(void)node;
	return write_weight(fd, weight);
}
#endif
