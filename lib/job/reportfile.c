// SPDX-License-Identifier: GPL-2.0-or-later
/* --report-file, opened as systemd and util-linux open a name in a place
 * others may write: no symbolic link anywhere on the path (openat2's
 * RESOLVE_NO_SYMLINKS, or a walk one component at a time with O_NOFOLLOW
 * where openat2 is missing), then fstat and fstatfs on what was opened.
 * A file that is there is not truncated here: nc2_report_print() does, so
 * that a run that fails before the job leaves it as it was. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "job/reportfile.h"
#include "syscalls.h"

#define REPORT_OPEN_FLAGS (O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC)

#ifndef BINFMTFS_MAGIC
#define BINFMTFS_MAGIC 0x42494e4d
#endif
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif
#ifndef FUSECTL_SUPER_MAGIC
#define FUSECTL_SUPER_MAGIC 0x65735543
#endif

/* Filesystems whose files are the kernel's controls: a write there acts on
 * the system (/proc/sys/kernel/hostname, a weight in sysfs, binfmt_misc's
 * register, a cgroup's limits). A deny list, not an allow list: the report
 * may go to any filesystem that holds files (local, network, FUSE, one
 * newer than this list), and only these hold controls instead. devtmpfs
 * reports tmpfs's magic, and its device nodes are not regular files. */
static const unsigned long control_fs[] = {
	PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC,
	DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, BPF_FS_MAGIC,
	DEVPTS_SUPER_MAGIC, SELINUX_MAGIC, SMACK_MAGIC, EFIVARFS_MAGIC,
	PSTOREFS_MAGIC, BINFMTFS_MAGIC, CONFIGFS_MAGIC, FUSECTL_SUPER_MAGIC,
};

static bool on_control_fs(int fd)
{
	struct statfs fs;

	if (fstatfs(fd, &fs) < 0)
		return true;
	for (size_t i = 0; i < sizeof(control_fs) / sizeof(control_fs[0]); i++)
		if ((unsigned long)fs.f_type == control_fs[i])
			return true;
	return false;
}

/* NAME under DIR, a directory that is no link: its O_PATH descriptor, or
 * -ELOOP for a link (O_PATH|O_NOFOLLOW takes the link itself, which
 * O_DIRECTORY then refuses as ENOTDIR, as it refuses a file). */
static int open_dir_below(int dir, const char *name)
{
	int fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd >= 0)
		return fd;
	if (errno == ENOTDIR && fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return -errno;
}

/* The file NAME under DIR (closed), never a link. */
static int open_last(int dir, const char *name)
{
	int fd = openat(dir, *name ? name : ".", REPORT_OPEN_FLAGS | O_NOFOLLOW, 0666);

	fd = fd < 0 ? -errno : fd;
	if (dir != AT_FDCWD)
		close(dir);
	return fd;
}

/* openat2's RESOLVE_NO_SYMLINKS done by hand: each directory of the path
 * opened below the one before it, then the file, none through a link. */
static int open_walk(const char *path)
{
	char buf[PATH_MAX], *name = buf, *slash;
	int dir = AT_FDCWD;

	if (!*path)
		return -ENOENT;
	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return -ENAMETOOLONG;
	if (*name == '/' && (dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	for (;;) {
		int below;

		name += strspn(name, "/");
		slash = strchr(name, '/');
		if (!slash || !slash[strspn(slash, "/")])
			break;
		*slash = '\0';
		below = open_dir_below(dir, name);
		if (dir != AT_FDCWD)
			close(dir);
		if (below < 0)
			return below;
		dir = below;
		name = slash + 1;
	}
	if (slash)
		*slash = '\0';
	return open_last(dir, name);
}

#ifdef NUMACTL2_TEST_BUILD
/* Test build only: NUMACTL2_TEST_NO_OPENAT2 set is a kernel without it, so
 * that the walk is tested on one that has it (strace's injection would
 * trace the job, which --report must trace itself). */
static int openat2_report(struct open_how *how, const char *path)
{
	if (getenv("NUMACTL2_TEST_NO_OPENAT2")) {
		errno = ENOSYS;
		return -1;
	}
	return sys_openat2(AT_FDCWD, path, how, sizeof(*how));
}
#else
static int openat2_report(struct open_how *how, const char *path)
{
	return sys_openat2(AT_FDCWD, path, how, sizeof(*how));
}
#endif

static int open_no_symlinks(const char *path)
{
	struct open_how how = {
		.flags = REPORT_OPEN_FLAGS, .mode = 0666, .resolve = RESOLVE_NO_SYMLINKS,
	};
	int fd = openat2_report(&how, path);

	if (fd >= 0)
		return fd;
	return errno == ENOSYS ? open_walk(path) : -errno;
}

/* What the opened file must be: a regular file (a FIFO, a device, a
 * socket is none), of one link (a hard link is a name a hostile user made
 * for someone else's file), the caller's own, on a filesystem of files. */
static int check_opened(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_nlink != 1)
		return -EMLINK;
	if (st.st_uid != geteuid())
		return -EPERM;
	return on_control_fs(fd) ? -EXDEV : 0;
}

int report_file_open(const char *path)
{
	int fd = open_no_symlinks(path), rc;

	/* ENXIO: a FIFO without a reader, a device or socket: none is a file. */
	if (fd < 0)
		return fd == -ENXIO ? -EINVAL : fd;
	rc = check_opened(fd);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}
