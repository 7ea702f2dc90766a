// SPDX-License-Identifier: GPL-2.0-or-later
/* Small sysfs and procfs files, opened and read one way (sysfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sysfile/sysfile.h"

#ifdef NUMACTL2_TEST_BUILD
const char *sysfile_test_dir(const char *live, const char *env)
{
	const char *dir = getenv(env);

	return dir && *dir ? dir : live;
}

const char *sysfile_test_dir_only(const char *env)
{
	return sysfile_test_dir("/nonexistent/numactl2-test-build", env);
}
#endif

int sysfile_open(const char *path, int flags)
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

/* Until LEN - 1 bytes or the end: procfs may hand a file out in pieces. */
static int read_fd(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return 0;
}

int sysfile_read(const char *path, char *buf, size_t len)
{
	int fd = sysfile_open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return fd;
	rc = read_fd(fd, buf, len);
	close(fd);
	return rc;
}

int sysfile_read_line(const char *path, char *buf, size_t len)
{
	int rc = sysfile_read(path, buf, len);

	if (rc == 0)
		buf[strcspn(buf, "\n")] = '\0';
	return rc;
}

int sysfile_read_sysfs(const char *path, char *buf, size_t len)
{
	int fd = sysfile_open(path, O_RDONLY | O_CLOEXEC), rc;
	struct statfs fs;

	if (fd < 0)
		return fd;
	if (fstatfs(fd, &fs) < 0 || fs.f_type != SYSFS_MAGIC)
		rc = -EPERM;
	else
		rc = read_fd(fd, buf, len);
	close(fd);
	return rc;
}

int sysfile_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int sysfile_boot_id(char *buf, size_t len)
{
	return sysfile_read_line("/proc/sys/kernel/random/boot_id", buf, len);
}
