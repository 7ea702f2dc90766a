/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Raw memory-policy syscalls that libnuma and libc do not give us (the
 * MPOL_* names that Debian 12's numaif.h lacks are libnumactl2.h's).
 *
 * set_mempolicy2() and friends were never merged: their numbers are reused by
 * other syscalls on mainline, so nothing here calls a number blindly.
 * numaif.h wraps set_mempolicy/get_mempolicy/mbind, never the calls below.
 */
#ifndef NUMACTL2_SYSCALLS_H
#define NUMACTL2_SYSCALLS_H

#include <fcntl.h>
#include <linux/openat2.h>
#include <numaif.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uapi/mempolicy2.h"


/* The project's own calls (kernel/). Their numbers are arguments: they come
 * from the running kernel's own list (mpol2.c), never from a table here. */
static inline long set_mempolicy2(long nr, const struct mpol_args *args, size_t size,
				  unsigned long flags)
{
	return syscall(nr, args, size, flags);
}

static inline long get_mempolicy2(long nr, struct mpol_args *args, size_t size,
				  unsigned long addr, unsigned long flags)
{
	return syscall(nr, args, size, addr, flags);
}

static inline long mbind2(long nr, void *start, unsigned long len,
			  const struct mpol_args *args, size_t size, unsigned long flags)
{
	return syscall(nr, start, len, args, size, flags);
}

/* Mainline since 5.17; glibc has no wrapper. */
static inline long set_mempolicy_home_node(void *start, unsigned long len,
					   unsigned long home_node, unsigned long flags)
{
	return syscall(SYS_set_mempolicy_home_node, start, len, home_node, flags);
}

/* Linux 5.6; glibc has no wrapper. The caller falls back where it is
 * ENOSYS (an older kernel, or a seccomp filter that does not know it). */
static inline int sys_openat2(int dirfd, const char *path, struct open_how *how, size_t size)
{
	return (int)syscall(SYS_openat2, dirfd, path, how, size);
}

/* pidfd_open's flag for a pidfd of one thread (Linux 6.9), which older
 * headers lack: the value of O_EXCL. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* getsockopt(): a pidfd of the peer of a Unix socket (Linux 6.5; Debian
 * 12's headers lack the name). An older kernel says ENOPROTOOPT. */
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

/* pidfd_open(), pidfd_send_signal() (glibc's wrappers are 2.36) and
 * renameat2() (2.28) go to the kernel directly: the binary runs on the
 * glibc numactl's set of versions asks, with pipe2 (2.9), clock_gettime
 * (2.17) and close_range (2.34) besides (test/startup.bats), and each
 * version more is checked by the dynamic loader at every start (GLIBC_2.6,
 * for CPU_COUNT: 423 instructions, 0.16%, bench/overhead). They are named
 * after the kernel's entry points, since libc's headers declare the plain
 * names. */
static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

/* renameat2(2) (Linux 3.15; glibc's wrapper is 2.28): RENAME_EXCHANGE
 * swaps two names in one step. A filesystem without it says EINVAL. */
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static inline int sys_renameat2(int olddir, const char *oldpath, int newdir, const char *newpath,
				unsigned int flags)
{
	return (int)syscall(SYS_renameat2, olddir, oldpath, newdir, newpath, flags);
}

/* kcmp(2) (CONFIG_KCMP; glibc has no wrapper): KCMP_VM, whether two
 * processes share one address space (0). */
#ifndef KCMP_VM
#define KCMP_VM 1
#endif

static inline int sys_kcmp(pid_t pid1, pid_t pid2, int type)
{
	return (int)syscall(SYS_kcmp, pid1, pid2, type, 0UL, 0UL);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags);
}

#endif
