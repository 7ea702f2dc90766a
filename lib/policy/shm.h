/* --shm and --file: a shared memory region that a policy is set on,
 * with numactl's semantics. */
#ifndef NUMACTL2_SHM_H
#define NUMACTL2_SHM_H

#include <stdbool.h>
#include <sys/types.h>

struct shm_region {
	const char *sysv_keyfile;	/* --shm */
	const char *file;		/* --file */
	unsigned long long length;	/* --length */
	unsigned long long offset;	/* --offset */
	unsigned mode;			/* --shmmode */
	unsigned long shmid;		/* --shmid: the ftok() project id */
	bool huge;			/* --huge */
	char *addr;			/* after shm_attach() */
	long pagesize;
};

void shm_attach(struct shm_region *r);
void shm_touch(const struct shm_region *r);
void shm_dump(const struct shm_region *r);
void shm_dump_nodes(const struct shm_region *r);

#endif
