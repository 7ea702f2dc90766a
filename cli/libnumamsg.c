/* The one line numactl2 writes when the program it runs would drop its
 * task-local weights (which library, why, what numactl2 did instead), and
 * the refusal under --no-global-weights. */
#include <err.h>
#include <stdio.h>

#include "cli/libnumamsg.h"

/* Which library, and why it drops the weights. */
static void why(char *buf, size_t len, const struct libnuma_finding *f)
{
	if (f->verdict == LIBNUMA_DROPS)
		snprintf(buf, len, "%s loads %s (libnuma 2.0.15-2.0.17), whose start-up resets "
			 "the memory policy without its task-local weights", f->prog, f->lib);
	else if (f->verdict == LIBNUMA_BUILT_IN)
		snprintf(buf, len, "%s is a static program with libnuma built in, whose version "
			 "cannot be read: its start-up may reset the memory policy without its "
			 "task-local weights", f->prog);
	else
		snprintf(buf, len, "%s loads %s, a libnuma whose version cannot be read: its "
			 "start-up may reset the memory policy without its task-local weights",
			 f->prog, f->lib);
}

void libnuma_global_said(const struct libnuma_finding *f)
{
	char msg[2 * PATH_MAX + 256];

	why(msg, sizeof(msg), f);
	warnx("%s; the weights go to the global table instead, with a lease", msg);
}

void libnuma_refused(const struct libnuma_finding *f)
{
	char msg[2 * PATH_MAX + 256];

	why(msg, sizeof(msg), f);
	errx(1, "%s, and --no-global-weights forbids changing the global ones", msg);
}
