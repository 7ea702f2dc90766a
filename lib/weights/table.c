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

#include "sysfile/sysfile.h"
#include "weights/table.h"

#define GW_SYSFS "/sys/kernel/mm/mempolicy/weighted_interleave"

/* The test build (make build/test/numactl2) uses NUMACTL2_SYSFS_WI's copy
 * of the table instead, and no table at all without it: host tests, and
 * anyone who runs the test build by hand, never write the real one. */
const char *gw_dir(void)
{
	return SYSFILE_WRITTEN_DIR(GW_SYSFS, "NUMACTL2_SYSFS_WI");
}

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

/* A weight or auto file is opened through sysfile_open: a planted link or
 * device is not written. */
int gw_open_node(unsigned node, int flags)
{
	char path[512];

	node_path(path, sizeof(path), node);
	return sysfile_open(path, flags);
}

bool gw_writable(unsigned node)
{
	char path[512];

	node_path(path, sizeof(path), node);
	return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

int gw_read(unsigned node, unsigned *weight)
{
	char path[512], buf[32];
	unsigned long w;
	int rc;

	node_path(path, sizeof(path), node);
	rc = sysfile_read_line(path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	if (nc2_parse_ulong(buf, WEIGHT_MAX, &w) < 0)
		return -EINVAL;
	*weight = nc2_weight_effective((unsigned)w);
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

	if (!auto_path(path, sizeof(path)) || sysfile_read_line(path, buf, sizeof(buf)) < 0)
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

#ifdef NUMACTL2_TEST_BUILD
/* Test build only: NUMACTL2_TEST_KERNEL_AUTO makes the copy of the table
 * act as the kernel's does on the auto switch: a node write turns it off
 * (1 or nobw), and with nobw turning it on fails with ENODEV, as on a
 * platform without bandwidth data. */
static const char *kernel_auto(void)
{
	const char *s = getenv("NUMACTL2_TEST_KERNEL_AUTO");

	return s && *s ? s : NULL;
}

static void node_written(void)
{
	char path[512];
	int fd;

	if (!kernel_auto() || !auto_path(path, sizeof(path)))
		return;
	fd = sysfile_open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)write_string(fd, "false");
		close(fd);
	}
}

static int auto_refused(void)
{
	return kernel_auto() && strcmp(kernel_auto(), "nobw") == 0 ? -ENODEV : 0;
}
#else
static void node_written(void)
{
}

static int auto_refused(void)
{
	return 0;
}
#endif

int gw_enable_auto(void)
{
	char path[512];
	int fd, rc;

	if (!auto_path(path, sizeof(path)))
		return -ENOENT;
	rc = auto_refused();
	if (rc < 0)
		return rc;
	fd = sysfile_open(path, O_WRONLY | O_CLOEXEC);
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
	int rc;

	snprintf(buf, sizeof(buf), "%u", weight);
	rc = write_string(fd, buf);
	if (rc == 0)
		node_written();
	return rc;
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

	if (s && nc2_parse_ulong(s, UINT_MAX, &n) == 0 && n == node)
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
