/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --shm and --file: a shared memory region that a policy is set on,
 * with numactl's semantics. Failures come back as a negative errno and the
 * step that failed (struct shm_region's failed), which the front end words. */
#ifndef NUMACTL2_SHM_H
#define NUMACTL2_SHM_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <numa.h>

/* The step of shm_attach() or a dump that failed. */
enum shm_step {
	SHM_OK,
	SHM_NO_LENGTH,		/* attached, with no length to set a policy on */
	SHM_UNALIGNED,		/* address or length not page aligned */
	SHM_KEYFILE_CREATE,	/* creat() of the --shm key file */
	SHM_KEY,		/* ftok() on the key file just made */
	SHM_SEGMENT_LENGTH,	/* a new segment, and no --length */
	SHM_SEGMENT_GET,	/* shmget() */
	SHM_SEGMENT_STAT,	/* shmctl(IPC_STAT) */
	SHM_SEGMENT_ATTACH,	/* shmat() */
	SHM_FILE_LENGTH,	/* a new file, and no --length */
	SHM_FILE_CREATE,	/* open(O_CREAT) */
	SHM_FILE_STAT,		/* fstat() */
	SHM_FILE_EXTEND,	/* ftruncate() */
	SHM_FILE_MAP,		/* mmap() */
	SHM_GET_POLICY,		/* get_mempolicy() on a page, in a dump */
};

/* What shm_attach() makes on the way, for the front end to announce. */
enum shm_created { SHM_CREATING_KEYFILE, SHM_CREATING_SEGMENT };

struct shm_region {
	const char *sysv_keyfile;	/* --shm */
	const char *file;		/* --file */
	unsigned long long length;	/* --length */
	unsigned long long offset;	/* --offset */
	unsigned mode;			/* --shmmode */
	unsigned long shmid;		/* --shmid: the ftok() project id */
	bool huge;			/* --huge */
	/* Told before shm_attach() makes the key file or the segment; may be NULL. */
	void (*creating)(const struct shm_region *r, enum shm_created what);
	char *addr;			/* after shm_attach() */
	long pagesize;
	enum shm_step failed;		/* after a call returned < 0 */
};

/* 0, or -errno (-EINVAL for SHM_NO_LENGTH, SHM_UNALIGNED and the missing
 * lengths) with r->failed set. */
int shm_attach(struct shm_region *r);
void shm_touch(const struct shm_region *r);
/* Write numactl's --dump and --dump-nodes lines to f; 0, or -errno with
 * r->failed = SHM_GET_POLICY (the lines before it are written). */
int shm_print_dump(FILE *f, struct shm_region *r);
int shm_print_dump_nodes(FILE *f, struct shm_region *r);
/* numactl's --verify: a line on f for each page not placed as MODE on
 * NODES asks, counted in *bad; 0, or -errno as a dump. */
int shm_print_verify(FILE *f, struct shm_region *r, int mode, const struct bitmask *nodes,
		     unsigned *bad);

#endif
