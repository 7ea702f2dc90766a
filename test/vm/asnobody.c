// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * asnobody: run a command as uid/gid 65534 with no supplementary groups.
 * The guest's busybox setpriv cannot change ids; the lease tests need an
 * unprivileged job.
 */
#define _GNU_SOURCE
#include <err.h>
#include <grp.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		errx(2, "usage: asnobody COMMAND [ARGS...]");
	if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
		err(1, "cannot become nobody");
	execvp(argv[1], argv + 1);
	err(127, "cannot run '%s'", argv[1]);
}
