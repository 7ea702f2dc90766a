// SPDX-License-Identifier: GPL-2.0-or-later
/* --shm and --file in numactl's words: what shm.c makes, and why it failed. */
#include <err.h>
#include <errno.h>
#include <stdlib.h>

#include "cli/shmmsg.h"

static void creating(const struct shm_region *r, enum shm_created what)
{
	if (what == SHM_CREATING_KEYFILE)
		warnx("creating shm key file %s mode %04o", r->sysv_keyfile, r->mode);
	else
		warnx("creating shared memory segment %s id %lu mode %04o length %lluMB",
		      r->sysv_keyfile, r->shmid, r->mode, (r->length + r->offset) >> 20);
}

void attach_shm(struct shm_region *r)
{
	int rc;

	r->creating = creating;
	rc = shm_attach(r);
	if (rc < 0)
		shm_failed(r, rc);
}

void shm_failed(const struct shm_region *r, int rc)
{
	errno = -rc;
	switch (r->failed) {
	case SHM_NO_LENGTH:
		errx(1, "policy region length not specified before %s",
		     r->sysv_keyfile ? "--shm" : "--file");
	case SHM_UNALIGNED:
		errx(1, "policy region not page aligned");
	case SHM_SEGMENT_LENGTH:
		errx(1, "need a --length to create a sysv shared memory segment");
	case SHM_FILE_LENGTH:
		errx(1, "need a --length to create a shared file");
	case SHM_KEYFILE_CREATE:
		err(1, "cannot create key file for shm %s", r->sysv_keyfile);
	case SHM_KEY:
		err(1, "cannot get key for shm key file %s", r->sysv_keyfile);
	case SHM_SEGMENT_GET:
		err(1, "cannot get shared memory segment %s", r->sysv_keyfile);
	case SHM_SEGMENT_STAT:
		err(1, "shmctl IPC_STAT");
	case SHM_SEGMENT_ATTACH:
		err(1, "shmat");
	case SHM_FILE_CREATE:
		err(1, "cannot create file %s", r->file);
	case SHM_FILE_STAT:
		err(1, "cannot stat %s", r->file);
	case SHM_FILE_EXTEND:
		err(1, "cannot extend %s", r->file);
	case SHM_FILE_MAP:
		err(1, "cannot map %s", r->file);
	default:	/* SHM_GET_POLICY */
		err(1, "get_mempolicy on shm");
	}
}
