// SPDX-License-Identifier: GPL-2.0-or-later
/* The one line numactl2 writes when the program it runs would drop its
 * task-local weights (which library, why, what numactl2 did instead), and
 * the refusal under --no-global-weights. */
#include <err.h>
#include <stdio.h>

#include "cli/libnumamsg.h"
#include "msg/messages.h"

void libnuma_global_said(const struct libnuma_finding *f)
{
	char msg[2 * PATH_MAX + 256];

	msg_libnuma_global(msg, sizeof(msg), f);
	warnx("%s", msg);
}

void libnuma_refused(const struct libnuma_finding *f)
{
	char msg[2 * PATH_MAX + 256];

	msg_libnuma_drops(msg, sizeof(msg), f);
	errx(1, "%s, and --no-global-weights forbids changing the global ones", msg);
}
