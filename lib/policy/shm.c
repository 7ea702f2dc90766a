// SPDX-License-Identifier: GPL-2.0-or-later
/* --shm and --file: attaching the region (a System V segment or a mapped
 * file, made when missing), faulting it in, numactl's dumps of it and its
 * --verify. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error/error.h"
#include "libnumactl2.h"
#include "policy/policy.h"
#include "syscalls.h"

static long huge_page_size(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long kb = 0;

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Hugepagesize: %ld kB", &kb) == 1)
				break;
		fclose(f);
	}
	return kb ? kb * 1024 : getpagesize();
}

/* STEP failed with errno ERR (0 for a refusal), in E with what it names:
 * the option (SHM_NO_LENGTH), else the key file or the file. */
static int failed(const struct shm_region *r, struct nc2_error *e, enum nc2_fault step, int err)
{
	const char *name = r->sysv_keyfile ? r->sysv_keyfile : r->file;

	if (step == SHM_NO_LENGTH)
		name = r->sysv_keyfile ? "--shm" : "--file";
	return error_set_name(e, step, err, name);
}

static int check_region(struct shm_region *r, struct nc2_error *e)
{
	if (!r->length)
		return failed(r, e, SHM_NO_LENGTH, 0);
	if ((unsigned long)r->addr % (unsigned long)r->pagesize || r->length % (unsigned long long)r->pagesize)
		return failed(r, e, SHM_UNALIGNED, 0);
	return 0;
}

static void announce(const struct shm_region *r, enum shm_created what)
{
	if (r->creating)
		r->creating(r, what);
}

static int sysv_key(struct shm_region *r, key_t *key, struct nc2_error *e)
{
	int fd;

	*key = ftok(r->sysv_keyfile, (int)r->shmid);
	if (*key >= 0)
		return 0;
	announce(r, SHM_CREATING_KEYFILE);
	fd = creat(r->sysv_keyfile, r->mode);
	if (fd < 0)
		return failed(r, e, SHM_KEYFILE_CREATE, errno);
	close(fd);
	*key = ftok(r->sysv_keyfile, (int)r->shmid);
	if (*key < 0)
		return failed(r, e, SHM_KEY, errno);
	return 0;
}

/* The segment of key, made when there is none and a length says how big. */
static int sysv_segment(struct shm_region *r, key_t key, struct nc2_error *e)
{
	int flags = r->huge ? SHM_HUGETLB : 0;
	int id = shmget(key, r->length, flags);

	if (id < 0 && errno == ENOENT) {
		if (!r->length)
			return failed(r, e, SHM_SEGMENT_LENGTH, 0);
		announce(r, SHM_CREATING_SEGMENT);
		id = shmget(key, r->length + r->offset, IPC_CREAT | (int)r->mode | flags);
	}
	if (id < 0)
		return failed(r, e, SHM_SEGMENT_GET, errno);
	return id;
}

static int attach_sysv(struct shm_region *r, struct nc2_error *e)
{
	struct shmid_ds ds;
	key_t key;
	int id, rc = sysv_key(r, &key, e);

	if (rc < 0)
		return rc;
	id = sysv_segment(r, key, e);
	if (id < 0)
		return id;
	if (!r->length) {
		if (shmctl(id, IPC_STAT, &ds) < 0)
			return failed(r, e, SHM_SEGMENT_STAT, errno);
		r->length = ds.shm_segsz;
	}
	r->addr = shmat(id, NULL, 0);
	if (r->addr == (void *)-1)
		return failed(r, e, SHM_SEGMENT_ATTACH, errno);
	r->addr += r->offset;
	r->pagesize = r->huge ? huge_page_size() : getpagesize();
	return check_region(r, e);
}

/* The file must cover offset + length, or touching the mapping raises SIGBUS. */
static int size_file(struct shm_region *r, int fd, struct nc2_error *e)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return failed(r, e, SHM_FILE_STAT, errno);
	if (!r->length && (unsigned long long)st.st_size > r->offset)
		r->length = (unsigned long long)st.st_size - r->offset;
	if (r->length + r->offset > (unsigned long long)st.st_size &&
	    ftruncate(fd, (off_t)(r->length + r->offset)) < 0)
		return failed(r, e, SHM_FILE_EXTEND, errno);
	r->pagesize = st.st_blksize;
	return check_region(r, e);
}

static int attach_file(struct shm_region *r, struct nc2_error *e)
{
	int rc, fd = open(r->file, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		if (!r->length)
			return failed(r, e, SHM_FILE_LENGTH, 0);
		fd = open(r->file, O_RDWR | O_CREAT | O_CLOEXEC, r->mode);
		if (fd < 0)
			return failed(r, e, SHM_FILE_CREATE, errno);
	}
	rc = size_file(r, fd, e);
	if (rc == 0) {
		r->addr = mmap(NULL, r->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			       (off_t)r->offset);
		if (r->addr == MAP_FAILED)
			rc = failed(r, e, SHM_FILE_MAP, errno);
	}
	close(fd);
	return rc;
}

int nc2_shm_attach(struct shm_region *r, struct nc2_error *e)
{
	return r->sysv_keyfile ? attach_sysv(r, e) : attach_file(r, e);
}

/* Faults every page in, so that the policy places it now. */
void nc2_shm_touch(const struct shm_region *r)
{
	for (unsigned long long off = 0; off < r->length; off += (unsigned long long)r->pagesize)
		((volatile char *)r->addr)[off] = ((volatile char *)r->addr)[off];
}

static void print_policy(FILE *f, const struct shm_region *r, unsigned long long start,
			 unsigned long long end, int mode, const struct bitmask *mask)
{
	if (mode == MPOL_DEFAULT)
		return;
	fprintf(f, "%016llx-%016llx: %s ", r->offset + start, r->offset + end, nc2_policy_name(mode).s);
	nc2_nodes_fprint(f, "", mask);
}

/* One line for each run of pages with the same policy, as numactl --dump. */
int nc2_shm_print_dump(FILE *f, const struct shm_region *r, struct nc2_error *e)
{
	struct bitmask *mask = numa_allocate_nodemask(), *prev = numa_allocate_nodemask();
	unsigned long long c, start = 0;
	int prev_mode = -1, mode, rc = 0;

	for (c = 0; c < r->length; c += (unsigned long long)r->pagesize) {
		if (get_mempolicy(&mode, mask->maskp, mask->size + 1, r->addr + c, MPOL_F_ADDR) < 0) {
			rc = failed(r, e, SHM_GET_POLICY, errno);
			prev_mode = -1;
			break;
		}
		mode &= ~MPOL_MODE_FLAGS;
		if (mode == prev_mode && numa_bitmask_equal(mask, prev))
			continue;
		if (prev_mode != -1)
			print_policy(f, r, start, c, prev_mode, prev);
		copy_bitmask_to_bitmask(mask, prev);
		prev_mode = mode;
		start = c;
	}
	if (prev_mode != -1)
		print_policy(f, r, start, c, prev_mode, prev);
	numa_bitmask_free(mask);
	numa_bitmask_free(prev);
	return rc;
}

/* One line for each run of pages on the same node, as numactl --dump-nodes. */
int nc2_shm_print_dump_nodes(FILE *f, const struct shm_region *r, struct nc2_error *e)
{
	unsigned long long c, start = 0;
	int prev = -1, node;

	for (c = 0; c < r->length; c += (unsigned long long)r->pagesize) {
		if (get_mempolicy(&node, NULL, 0, r->addr + c, MPOL_F_ADDR | MPOL_F_NODE) < 0)
			return failed(r, e, SHM_GET_POLICY, errno);
		if (node == prev)
			continue;
		if (prev != -1)
			fprintf(f, "%016llx-%016llx: %d\n", r->offset + start, r->offset + c, prev);
		prev = node;
		start = c;
	}
	if (prev != -1)
		fprintf(f, "%016llx-%016llx: %d\n", r->offset + start, r->offset + c, prev);
	return 0;
}

/* What --verify expects of each page, and what it found wrong. */
struct verify {
	int mode;
	const struct bitmask *nodes;
	struct bitmask *real;		/* the page's node mask */
	int next;			/* interleave: the node the page must be on */
	unsigned bad;
};

static void __attribute__((format(printf, 4, 5)))
print_mismatch(FILE *f, const struct shm_region *r, unsigned long long off, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "numactl2 verify %llx: ", r->offset + off);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
}

/* Interleave's order: the next node of MASK after CUR, wrapping. */
static int interleave_next(int cur, const struct bitmask *mask)
{
	unsigned n = (unsigned)cur;

	do
		n = (n + 1) % mask->size;
	while (!numa_bitmask_isbitset(mask, n));
	return (int)n;
}

/* The page's node against the policy: interleave's next in order, the
 * other policies' set. Returns false where numactl stops looking. */
static bool print_node_mismatch(FILE *f, const struct shm_region *r, struct verify *v,
			unsigned long long off, int node)
{
	if (v->mode == MPOL_INTERLEAVE) {
		if (node < 0 || !numa_bitmask_isbitset(v->real, (unsigned)node)) {
			print_mismatch(f, r, off, "interleave node out of range %d\n", node);
			v->bad++;
		}
		if (node != v->next) {
			print_mismatch(f, r, off, "expected interleave node %d, got %d\n", v->next, node);
			v->bad++;
			return false;
		}
		v->next = interleave_next(node, v->real);
	} else if (v->mode == MPOL_BIND || v->mode == MPOL_PREFERRED ||
		   v->mode == MPOL_PREFERRED_MANY) {
		if (node < 0 || !numa_bitmask_isbitset(v->real, (unsigned)node)) {
			print_mismatch(f, r, off, "unexpected node %d\n", node);
			nc2_nodes_fprint(f, "expected", v->real);
			v->bad++;
		}
	}
	return true;
}

/* One page: 1 to go on, 0 where numactl stops, or -1. */
static int print_page_mismatches(FILE *f, const struct shm_region *r, struct verify *v,
				 unsigned long long off, struct nc2_error *e)
{
	int mode, node;

	if (get_mempolicy(&mode, v->real->maskp, v->real->size + 1, r->addr + off, MPOL_F_ADDR) < 0 ||
	    get_mempolicy(&node, NULL, 0, r->addr + off, MPOL_F_ADDR | MPOL_F_NODE) < 0)
		return failed(r, e, SHM_GET_POLICY, errno);
	mode &= ~MPOL_MODE_FLAGS;
	if (mode != v->mode) {
		print_mismatch(f, r, off, "wrong policy %s, expected %s\n", nc2_policy_name(mode).s,
			    nc2_policy_name(v->mode).s);
		v->bad++;
		return 0;
	}
	if (!numa_bitmask_equal(v->real, v->nodes)) {
		print_mismatch(f, r, off, "mismatched node mask\n");
		nc2_nodes_fprint(f, "expected", v->nodes);
		nc2_nodes_fprint(f, "real", v->real);
		v->bad++;
	}
	return print_node_mismatch(f, r, v, off, node);
}

/* numactl's --verify, on a region already faulted in: every page has MODE
 * on NODES and, under interleave, the next node in turn. Each mismatch is
 * a line on f; *bad counts them. 0, or -1 with E's fault SHM_GET_POLICY. */
int nc2_shm_print_verify(FILE *f, const struct shm_region *r, int mode, const struct bitmask *nodes,
		     unsigned *bad, struct nc2_error *e)
{
	struct verify v = { .mode = mode, .nodes = nodes, .real = numa_allocate_nodemask() };
	int rc = 1;

	if (mode == MPOL_INTERLEAVE &&
	    get_mempolicy(&v.next, NULL, 0, r->addr, MPOL_F_ADDR | MPOL_F_NODE) < 0)
		rc = failed(r, e, SHM_GET_POLICY, errno);
	for (unsigned long long c = 0; rc > 0 && c < r->length; c += (unsigned long long)r->pagesize)
		rc = print_page_mismatches(f, r, &v, c, e);
	numa_bitmask_free(v.real);
	*bad = v.bad;
	return rc < 0 ? rc : 0;
}
