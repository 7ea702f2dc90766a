/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The room the memory cgroup (v1 or v2) leaves the calling process. */
#ifndef NUMACTL2_MEMCG_H
#define NUMACTL2_MEMCG_H

#define MEMCG_UNLIMITED (~0ULL)

/* The least, up the hierarchy, of limit less usage, in bytes;
 * MEMCG_UNLIMITED when no memory cgroup limits it (or none can be read). */
unsigned long long memcg_room(void);

#endif
