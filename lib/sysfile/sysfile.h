/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One way to open and read a small sysfs or procfs file: a regular file
 * only (never through a symlink, never a FIFO or device that would block or
 * act on a read), read to a bound. */
#ifndef NUMACTL2_SYSFILE_H
#define NUMACTL2_SYSFILE_H

#include <stddef.h>

/* The directory that stands for the live directory LIVE (such as
 * "/sys/devices/system/node"): LIVE itself, or in the test build the one
 * the environment variable ENV names, a copy or fake the host tests make.
 * A macro, so that the release build holds no ENV name (test/build.bats). */
#ifdef NUMACTL2_TEST_BUILD
const char *sysfile_test_dir(const char *live, const char *env);
#define SYSFILE_DIR(live, env) sysfile_test_dir(live, env)
#else
#define SYSFILE_DIR(live, env) (live)
#endif

/* As SYSFILE_DIR, for a live directory numactl2 writes (the weight table):
 * the test build, ENV unset, has a directory that does not exist instead,
 * so that a test build run by hand, a bench or a helper that forgot ENV
 * never writes the host's live one. */
#ifdef NUMACTL2_TEST_BUILD
const char *sysfile_test_dir_only(const char *env);
#define SYSFILE_WRITTEN_DIR(live, env) sysfile_test_dir_only(env)
#else
#define SYSFILE_WRITTEN_DIR(live, env) (live)
#endif

/* PATH opened with FLAGS (O_RDONLY or O_WRONLY, O_CLOEXEC the caller's
 * choice: a lease descriptor must survive exec), O_NOFOLLOW and
 * O_NONBLOCK added. The descriptor, or -errno: -EINVAL when PATH is not a
 * regular file (as sysfs attributes are). */
int sysfile_open(const char *path, int flags);

/* This boot's id (/proc/sys/kernel/random/boot_id), that files which must
 * not outlive a boot carry: 0 or -errno. */
int sysfile_boot_id(char *buf, size_t len);

/* LEN bytes of BUF to FD, however many write() calls it takes: 0 or -errno. */
int sysfile_write_all(int fd, const char *buf, size_t len);

/* At most LEN - 1 bytes of PATH into BUF, NUL-terminated: 0 or -errno. */
int sysfile_read(const char *path, char *buf, size_t len);

/* As sysfile_read, BUF cut at its first newline: a one-value attribute. */
int sysfile_read_line(const char *path, char *buf, size_t len);

/* As sysfile_read, and only from sysfs (-EPERM elsewhere): a file planted
 * elsewhere must not choose what it decides (a syscall number). */
int sysfile_read_sysfs(const char *path, char *buf, size_t len);

#endif
