/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A node list through libnuma, for the request's setters (lib/request/fill.c,
 * nc2_nodes_parse()), which check it and say why it was refused. */
#ifndef NUMACTL2_NODES_H
#define NUMACTL2_NODES_H

#include <stddef.h>

#include "libnumactl2.h"

/* WHY (LEN bytes): libnuma's warning when it refused S, or "". */
struct bitmask *nodes_parse(const char *s, bool all, char *why, size_t len);

#endif
