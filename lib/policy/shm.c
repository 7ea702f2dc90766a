#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/nodes.h"
#include "policy/policy.h"
#include "policy/shm.h"
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

static void check_region(const struct shm_region *r, const char *opt)
{
	if (!r->length)
		errx(1, "policy region length not specified before %s", opt);
	if ((unsigned long)r->addr % (unsigned long)r->pagesize || r->length % (unsigned long long)r->pagesize)
		errx(1, "policy region not page aligned");
}

static key_t sysv_key(const struct shm_region *r)
{
	key_t key = ftok(r->sysv_keyfile, (int)r->shmid);
	int fd;

	if (key >= 0)
		return key;
	warnx("creating shm key file %s mode %04o", r->sysv_keyfile, r->mode);
	fd = creat(r->sysv_keyfile, r->mode);
	if (fd < 0)
		err(1, "cannot create key file for shm %s", r->sysv_keyfile);
	close(fd);
	key = ftok(r->sysv_keyfile, (int)r->shmid);
	if (key < 0)
		err(1, "cannot get key for shm key file %s", r->sysv_keyfile);
	return key;
}

static void attach_sysv(struct shm_region *r)
{
	int flags = r->huge ? SHM_HUGETLB : 0;
	key_t key = sysv_key(r);
	struct shmid_ds ds;
	int id = shmget(key, r->length, flags);

	if (id < 0 && errno == ENOENT) {
		if (!r->length)
			errx(1, "need a --length to create a sysv shared memory segment");
		warnx("creating shared memory segment %s id %lu mode %04o length %lluMB",
		      r->sysv_keyfile, r->shmid, r->mode, (r->length + r->offset) >> 20);
		id = shmget(key, r->length + r->offset, IPC_CREAT | (int)r->mode | flags);
	}
	if (id < 0)
		err(1, "cannot get shared memory segment %s", r->sysv_keyfile);
	if (!r->length) {
		if (shmctl(id, IPC_STAT, &ds) < 0)
			err(1, "shmctl IPC_STAT");
		r->length = ds.shm_segsz;
	}
	r->addr = shmat(id, NULL, 0);
	if (r->addr == (void *)-1)
		err(1, "shmat");
	r->addr += r->offset;
	r->pagesize = r->huge ? huge_page_size() : getpagesize();
	check_region(r, "--shm");
}

/* The file must cover offset + length, or touching the mapping raises SIGBUS. */
static void attach_file(struct shm_region *r)
{
	struct stat st;
	int fd = open(r->file, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		if (!r->length)
			errx(1, "need a --length to create a shared file");
		fd = open(r->file, O_RDWR | O_CREAT | O_CLOEXEC, r->mode);
		if (fd < 0)
			err(1, "cannot create file %s", r->file);
	}
	if (fstat(fd, &st) < 0)
		err(1, "cannot stat %s", r->file);
	if (!r->length && (unsigned long long)st.st_size > r->offset)
		r->length = (unsigned long long)st.st_size - r->offset;
	if (r->length + r->offset > (unsigned long long)st.st_size &&
	    ftruncate(fd, (off_t)(r->length + r->offset)) < 0)
		err(1, "cannot extend %s", r->file);
	r->pagesize = st.st_blksize;
	check_region(r, "--file");
	r->addr = mmap(NULL, r->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)r->offset);
	if (r->addr == MAP_FAILED)
		err(1, "cannot map %s", r->file);
	close(fd);
}

void shm_attach(struct shm_region *r)
{
	if (r->sysv_keyfile)
		attach_sysv(r);
	else
		attach_file(r);
}

/* Faults every page in, so that the policy places it now. */
void shm_touch(const struct shm_region *r)
{
	for (unsigned long long off = 0; off < r->length; off += (unsigned long long)r->pagesize)
		((volatile char *)r->addr)[off] = ((volatile char *)r->addr)[off];
}

static void dump_policy(const struct shm_region *r, unsigned long long start,
			unsigned long long end, int mode, const struct bitmask *mask)
{
	if (mode == MPOL_DEFAULT)
		return;
	printf("%016llx-%016llx: %s ", r->offset + start, r->offset + end, policy_name(mode));
	nodes_print("", mask);
}

/* One line for each run of pages with the same policy, as numactl --dump. */
void shm_dump(const struct shm_region *r)
{
	struct bitmask *mask = numa_allocate_nodemask(), *prev = numa_allocate_nodemask();
	unsigned long long c, start = 0;
	int prev_mode = -1, mode;

	for (c = 0; c < r->length; c += (unsigned long long)r->pagesize) {
		if (get_mempolicy(&mode, mask->maskp, mask->size + 1, r->addr + c, MPOL_F_ADDR) < 0)
			err(1, "get_mempolicy on shm");
		mode &= ~MPOL_MODE_FLAGS;
		if (mode == prev_mode && numa_bitmask_equal(mask, prev))
			continue;
		if (prev_mode != -1)
			dump_policy(r, start, c, prev_mode, prev);
		copy_bitmask_to_bitmask(mask, prev);
		prev_mode = mode;
		start = c;
	}
	if (prev_mode != -1)
		dump_policy(r, start, c, prev_mode, prev);
	numa_bitmask_free(mask);
	numa_bitmask_free(prev);
}

/* One line for each run of pages on the same node, as numactl --dump-nodes. */
void shm_dump_nodes(const struct shm_region *r)
{
	unsigned long long c, start = 0;
	int prev = -1, node;

	for (c = 0; c < r->length; c += (unsigned long long)r->pagesize) {
		if (get_mempolicy(&node, NULL, 0, r->addr + c, MPOL_F_ADDR | MPOL_F_NODE) < 0)
			err(1, "get_mempolicy on shm");
		if (node == prev)
			continue;
		if (prev != -1)
			printf("%016llx-%016llx: %d\n", r->offset + start, r->offset + c, prev);
		prev = node;
		start = c;
	}
	if (prev != -1)
		printf("%016llx-%016llx: %d\n", r->offset + start, r->offset + c, prev);
}
