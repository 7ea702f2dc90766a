// SPDX-License-Identifier: GPL-2.0-or-later
/* The one line numactl2 writes when the program it runs would drop its
 * task-local weights (which library, why, what numactl2 did instead); the
 * refusal under --no-global-weights is a request error (msg/reqerror.c). */
#include <err.h>
#include <stdio.h>

#include "cli/libnumamsg.h"
#include "msg/reqerror.h"

void libnuma_global_said(const struct libnuma_finding *f)
{
	char msg[2 * PATH_MAX + 256];

	msg_libnuma_global(msg, sizeof(msg), f);
	warnx("%s", msg);
}
