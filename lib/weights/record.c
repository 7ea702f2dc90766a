// SPDX-License-Identifier: GPL-2.0-or-later
/* Lease records (this file owns them): one empty file per held weight file
 * and holder, RECORD_DIR/numactl2-lease.DEV.INO.PID.START.RANDOM, saying
 * that the process PID, started START clock ticks after boot (field 22 of
 * /proc/PID/stat), holds the lease on the weight file DEV:INO. The name is
 * the whole record: nothing is read from the file, so there is no content to
 * forge or to half-write. Why the records exist and what they mean is in
 * lease.c.
 *
 * Anyone can create a file of any name there, so a record counts only when
 * the process it names could have made it: the file is a regular, empty
 * file with one link, owned by that process's user (the owner of
 * /proc/PID) or by root, the process runs with that start time and is no
 * kernel thread. Records of the run that reads them (its own PID, and the
 * numactl2 it runs under: --report, --restore-weights) say so, for
 * holders.c: they are never another job's. A name that does not count is
 * removed by whoever may (its owner, or root), within a budget. RANDOM
 * (getrandom()) makes names nobody can guess: a file planted under the name
 * a run will use would otherwise be taken for its record, and removed by
 * the planter to end the lease.
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
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "syscalls.h"
#include "weights/procfacts.h"
#include "weights/record.h"

#define RECORD_DIR "/dev/shm"
#define RECORD_PREFIX "numactl2-lease."

/* What one run spends removing records of one kind, at most: a directory
 * flooded with them (any user can make files there) is cleared over several
 * runs, each of them bounded; a few are gone after the first run that may
 * remove them. */
#define REMOVE_BUDGET_NS 100000000ULL

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

/* This process's record for the weight file open on FD. */
static int own_record(int fd, struct lease_record *r)
{
	struct proc_cache procs = { 0 };
	const struct proc_facts *f;
	struct stat st;
	int rc = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	r->pid = getpid();
	f = proc_facts(&procs, r->pid);
	if (!f)
		rc = -ENOMEM;
	else if (f->state != PROC_RUNS)
		rc = -EIO;
	else
		r->start = f->start;
	proc_cache_free(&procs);
	return rc;
}

static int new_name(char name[RECORD_NAME_MAX], const struct lease_record *r)
{
	unsigned long long random;

	if (sys_getrandom(&random, sizeof(random), 0) != sizeof(random))
		return -errno;
	snprintf(name, RECORD_NAME_MAX, RECORD_PREFIX "%llx.%llu.%d.%llu.%016llx",
		 (unsigned long long)r->dev, (unsigned long long)r->ino, r->pid, r->start, random);
	return 0;
}

/* Records that this process holds the lease on the weight file open on FD,
 * under a new name (NAME, for record_remove()): a name that is taken is
 * someone else's file, never this run's record. 0 or -errno. */
int record_make(int fd, char name[RECORD_NAME_MAX])
{
	struct lease_record r = { 0 };
	int dir = open_dir(), rc, f = -1;

	if (dir < 0)
		return dir;
	rc = own_record(fd, &r);
	for (int tries = 0; rc == 0 && f < 0 && tries < 8; tries++) {
		rc = new_name(name, &r);
		if (rc < 0)
			break;
		f = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		rc = f >= 0 || errno == EEXIST ? 0 : -errno;
	}
	if (f >= 0)
		close(f);
	else if (rc == 0)
		rc = -EEXIST;
	close(dir);
	return rc;
}

/* The record record_make() named NAME, gone: the lease ends here, not at exit. */
void record_remove(const char *name)
{
	int dir = open_dir();

	if (dir < 0)
		return;
	(void)unlinkat(dir, name, 0);
	close(dir);
}

/* A number in BASE at P: where it ends, or NULL. No sign, no space. */
static const char *number(const char *p, int base, unsigned long long *v)
{
	char *end;

	/* Not isxdigit(): see holders.c's scan_proc() on ctype. */
	if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
		return NULL;
	errno = 0;
	*v = strtoull(p, &end, base);
	return errno || end == p ? NULL : end;
}

/* A number in BASE and a dot: what follows, or NULL. */
static const char *field(const char *p, int base, unsigned long long *v)
{
	p = p ? number(p, base, v) : NULL;
	return p && *p == '.' ? p + 1 : NULL;
}

/* PREFIX DEV.INO.PID.START, then .RANDOM (16 hex digits), or nothing: the
 * records of numactl2 before names had a random part, checked alike. */
static bool parse_name(const char *name, struct lease_record *r)
{
	unsigned long long dev, ino, pid, random;
	const char *p = NULL, *end;

	if (strncmp(name, RECORD_PREFIX, strlen(RECORD_PREFIX)) == 0)
		p = field(field(field(name + strlen(RECORD_PREFIX), 16, &dev), 10, &ino), 10, &pid);
	if (!p || !pid || pid > INT_MAX || !(end = number(p, 10, &r->start)))
		return false;
	if (*end == '.') {
		p = end + 1;
		end = number(p, 16, &random);
		if (!end || end - p != 16)
			return false;
	}
	r->dev = (dev_t)dev;
	r->ino = (ino_t)ino;
	r->pid = (pid_t)pid;
	return *end == '\0';
}

/* One pass over the directory. */
struct scan {
	int dir;
	struct proc_cache procs;
	struct stat exe;	/* /proc/self/exe; st_ino 0 until it is needed */
};

/* What a record means to the run that reads it. */
enum verdict {
	REC_COUNTS,		/* a holder */
	REC_VOID,		/* nobody's: removed where this user may */
	REC_LEFT,		/* its process cannot be seen: left alone */
};

static bool same_exe(struct scan *s, pid_t pid)
{
	char path[64];
	struct stat st;

	if (!s->exe.st_ino && stat("/proc/self/exe", &s->exe) < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	return stat(path, &st) == 0 && st.st_dev == s->exe.st_dev && st.st_ino == s->exe.st_ino;
}

/* Is PID this process, or an ancestor that is numactl2 itself (the parent
 * --report and --restore-weights keep, recorded as the holder)? */
static bool is_this_run(struct scan *s, pid_t pid)
{
	pid_t p = getppid();

	if (pid == getpid())
		return true;
	for (unsigned depth = 0; p > 0 && depth < 4096; depth++) {
		const struct proc_facts *f;

		if (p == pid)
			return same_exe(s, pid);
		f = proc_facts(&s->procs, p);
		if (!f || f->state != PROC_RUNS)
			return false;
		p = f->ppid;
	}
	return false;
}

/* The file NAME, of record R: made by the process it names? */
static enum verdict judge(struct scan *s, const char *name, struct lease_record *r)
{
	const struct proc_facts *f = proc_facts(&s->procs, r->pid);
	struct stat st;

	if (!f || f->state == PROC_UNKNOWN)
		return REC_LEFT;
	if (f->state == PROC_GONE || f->start != r->start || f->kthread)
		return REC_VOID;
	if (fstatat(s->dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return REC_LEFT;
	if (!S_ISREG(st.st_mode) || st.st_size || st.st_nlink != 1 ||
	    (st.st_uid != 0 && st.st_uid != f->uid))
		return REC_VOID;
	r->this_run = is_this_run(s, r->pid);
	return REC_COUNTS;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	sys_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* What this run has spent removing records: those that count for nothing,
 * and those --force overrode (each within its own budget, so that neither
 * kind can crowd out the other). */
static unsigned long long spent_void, spent_cleared;

/* Removes NAME while SPENT is within the budget (the sticky directory lets
 * each user remove only their own; root, all: the others fail). */
static void remove_within(int dir, const char *name, unsigned long long *spent)
{
	unsigned long long t0;

	if (*spent >= REMOVE_BUDGET_NS)
		return;
	t0 = now_ns();
	(void)unlinkat(dir, name, 0);
	*spent += now_ns() - t0;
}

/* --force overrode the lease record R if it is another process's, of
 * CLEAR's file: it goes (where this user may). */
static void cleared(int dir, const char *name, const struct lease_record *r,
		    const struct stat *clear)
{
	if (!r->this_run && clear->st_dev == r->dev && clear->st_ino == r->ino)
		remove_within(dir, name, &spent_cleared);
}

/* Calls FN for each record that counts, but those KNOWN says tell nothing
 * new (they are not checked); with CLEAR, removes those of other processes
 * that name CLEAR's file instead. Records that count for nothing are
 * removed where this user may (remove_within()). A record, once void, stays
 * void (no process can get back a PID with its start time, nor a file its
 * owner), so this needs no lock. A directory that is missing, unsafe or unreadable has no records:
 * the leases are then the flock() alone, as they are for runs that could
 * not make their records there. */
static void scan(record_known_fn *known, record_fn *fn, void *arg, const struct stat *clear)
{
	struct scan s = { .dir = open_dir() };
	struct lease_record r;
	struct dirent *d;
	DIR *dir;

	if (s.dir < 0)
		return;
	dir = fdopendir(s.dir);
	if (!dir) {
		close(s.dir);
		return;
	}
	while ((d = readdir(dir))) {
		enum verdict v = REC_LEFT;

		if (parse_name(d->d_name, &r) && !(known && known(&r, arg)))
			v = judge(&s, d->d_name, &r);
		if (v == REC_VOID)
			remove_within(s.dir, d->d_name, &spent_void);
		else if (v == REC_COUNTS && clear)
			cleared(s.dir, d->d_name, &r, clear);
		else if (v == REC_COUNTS)
			fn(&r, arg);
	}
	closedir(dir);
	proc_cache_free(&s.procs);
}

void record_scan(record_known_fn *known, record_fn *fn, void *arg)
{
	scan(known, fn, arg, NULL);
}

/* --force overrode the leases on the weight file open on FD: their records
 * go too (where this user may), or they would refuse the next change. */
void record_clear(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0)
		scan(NULL, NULL, NULL, &st);
}
