// SPDX-License-Identifier: GPL-2.0-or-later
/* Output that never reached stdout (--hardware >/dev/full) is an error.
 * Called on each path that prints, instead of from atexit(), which would
 * cost every run before its exec. */
#include <err.h>
#include <stdio.h>

#include "cli/closeout.h"

int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		warn("write error");
		return 1;
	}
	return status;
}
