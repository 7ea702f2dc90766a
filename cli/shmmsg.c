// SPDX-License-Identifier: GPL-2.0-or-later
/* --shm and --file in numactl's words: what shm.c makes; why it failed is
 * msg/'s to word. */
#include <err.h>

#include "cli/prepare.h"
#include "cli/shmmsg.h"

static void creating(const struct shm_region *r, enum shm_created what)
{
	if (what == SHM_CREATING_KEYFILE)
		warnx("creating shm key file %s mode %04o", r->sysv_keyfile, r->mode);
	else
		warnx("creating shared memory segment %s id %lu mode %04o length %lluMB",
		      r->sysv_keyfile, r->shmid, r->mode, (r->length + r->offset) >> 20);
}

void attach_shm(struct shm_region *r, struct nc2_error *e)
{
	r->creating = creating;
	if (nc2_shm_attach(r, e) < 0)
		cli_request_failed(e);
}
