/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --shm and --file in numactl's words: what shm.c makes. */
#ifndef NUMACTL2_SHMMSG_H
#define NUMACTL2_SHMMSG_H

#include "libnumactl2.h"

/* nc2_shm_attach(), announcing the key file and segment it makes; exit 1 when
 * it fails (E says why). */
void attach_shm(struct shm_region *r, struct nc2_error *e);

#endif
