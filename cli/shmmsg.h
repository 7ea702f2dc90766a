/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --shm and --file in numactl's words: what shm.c makes, and why it failed. */
#ifndef NUMACTL2_SHMMSG_H
#define NUMACTL2_SHMMSG_H

#include "libnumactl2.h"

/* shm_attach(), announcing the key file and segment it makes; exit 1 when
 * it fails. */
void attach_shm(struct shm_region *r);

/* Exit 1 with the message for r->failed; rc is the call's -errno. */
void shm_failed(const struct shm_region *r, int rc) __attribute__((noreturn));

#endif
