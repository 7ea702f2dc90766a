// SPDX-License-Identifier: GPL-2.0-or-later
/* Lease records (this file owns them): one empty file per held weight file
 * and holder, RECORD_DIR/numactl2-lease.DEV.INO.PID.START, saying that the
 * process PID, started START clock ticks after boot (field 22 of
 * /proc/PID/stat), holds the lease on the weight file DEV:INO. The name is
 * the whole record: nothing is read from the file, so there is no content to
 * forge or to half-write. Why the records exist and what they mean is in
 * lease.c.
 *
 * Where: /dev/shm. It exists on every Linux system with a C library (POSIX
 * shm_open() lives there), is root's, mode 1777, so any user, root or not,
 * can create a record and only its owner (or root) can remove it; it is a
 * tmpfs, emptied at boot, when PIDs start over. A directory of our own
 * below it would be owned by whoever made it first, who could then remove
 * everybody's records. A directory that is neither root's nor ours, or that
 * others can write without the sticky bit, is not used. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weights/record.h"

#define RECORD_DIR "/dev/shm"
#define RECORD_PREFIX "numactl2-lease."

#ifdef NUMACTL2_TEST_BUILD
#include <libgen.h>

/* Test build only: NUMACTL2_LEASE_DIR, else the directory that holds the
 * copy of the table (NUMACTL2_SYSFS_WI), so that tests neither share
 * records nor leave any in the host's /dev/shm. */
const char *record_dir(void)
{
	static char parent[512];
	const char *dir = getenv("NUMACTL2_LEASE_DIR"), *wi = getenv("NUMACTL2_SYSFS_WI");

	if (dir && *dir)
		return dir;
	if (!wi || !*wi)
		return RECORD_DIR;
	snprintf(parent, sizeof(parent), "%s", wi);
	return dirname(parent);
}
#else
const char *record_dir(void)
{
	return RECORD_DIR;
}
#endif

/* The records' directory, if it is safe to keep them in: -errno if not. */
static int open_dir(void)
{
	int fd = open(record_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || (st.st_uid != 0 && st.st_uid != geteuid()) ||
	    ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* PID's state, thread count and start time from /proc/PID/stat: 0 or -errno.
 * The command name (field 2) may hold spaces and parentheses: the fields
 * after it are counted from its last ')'. */
static int proc_stat(pid_t pid, char *state, long *threads, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* fields 3 (state), 20 (num_threads) and 22 (starttime) */
	if (!p || sscanf(p + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %*s %ld %*s %llu", state, threads, start) != 3)
		return -EIO;
	return 0;
}

static void record_name(char *buf, size_t len, const struct lease_record *r)
{
	snprintf(buf, len, RECORD_PREFIX "%llx.%llu.%d.%llu", (unsigned long long)r->dev,
		 (unsigned long long)r->ino, r->pid, r->start);
}

/* This process's record for the weight file open on FD. */
static int own_record(int fd, struct lease_record *r)
{
	struct stat st;
	char state;
	long threads;

	if (fstat(fd, &st) < 0)
		return -errno;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	r->pid = getpid();
	return proc_stat(r->pid, &state, &threads, &r->start);
}

/* Records that this process holds the lease on the weight file open on FD.
 * Returns 1 when it made the record, 0 when the record was there already
 * (this very process took the same lease before an exec: the name says
 * the same), or -errno. */
int record_make(int fd)
{
	struct lease_record r;
	char name[128];
	int dir = open_dir(), rc, f;

	if (dir < 0)
		return dir;
	rc = own_record(fd, &r);
	if (rc == 0) {
		record_name(name, sizeof(name), &r);
		f = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		rc = f >= 0 ? 1 : errno == EEXIST ? 0 : -errno;
		if (f >= 0)
			close(f);
	}
	close(dir);
	return rc;
}

/* The record record_make(FD) made, gone: the lease ends here, not at exit. */
void record_remove(int fd)
{
	struct lease_record r;
	char name[128];
	int dir = open_dir();

	if (dir < 0)
		return;
	if (own_record(fd, &r) == 0) {
		record_name(name, sizeof(name), &r);
		(void)unlinkat(dir, name, 0);
	}
	close(dir);
}

static bool parse_name(const char *name, struct lease_record *r)
{
	unsigned long long dev, ino;
	int pid, end = 0;

	if (sscanf(name, RECORD_PREFIX "%llx.%llu.%d.%llu%n", &dev, &ino, &pid, &r->start,
		   &end) != 4 || name[end] || pid <= 0)
		return false;
	r->dev = (dev_t)dev;
	r->ino = (ino_t)ino;
	r->pid = pid;
	return true;
}

/* Is the record's process still running? Another process under the same
 * PID (another start time) is not it, nor is a zombie whose threads have all
 * ended. When /proc/PID/stat cannot be read but the PID exists (hidepid, or
 * it is exiting right now) the record stands: a lease is never taken to be
 * over on a guess. */
static bool record_live(const struct lease_record *r)
{
	unsigned long long start;
	long threads;
	char state;

	if (proc_stat(r->pid, &state, &threads, &start) == 0)
		return start == r->start && !((state == 'Z' || state == 'X') && threads <= 1);
	return !(kill(r->pid, 0) < 0 && errno == ESRCH);
}

/* Calls FN for each record of a running process. The records of processes
 * that have ended are removed where this user may (the sticky directory
 * lets each user remove only their own; root, all): a record, once stale,
 * stays stale, since no process can get back a PID with its start time, so
 * this needs no lock. A directory that is missing, unsafe or unreadable
 * has no records: the leases are then the flock() alone, as they are for
 * runs that could not make their records there. */
void record_scan(record_fn *fn, void *arg)
{
	int fd = open_dir();
	struct lease_record r;
	struct dirent *d;
	DIR *dir;

	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		if (!parse_name(d->d_name, &r))
			continue;
		if (record_live(&r))
			fn(&r, arg);
		else
			(void)unlinkat(fd, d->d_name, 0);
	}
	closedir(dir);
}
