/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Does the program a job runs start with a libnuma whose constructor drops
 * inherited task-local weights (libnuma 2.0.15-2.0.17)? Asked before any
 * policy or weight is set, for the task-local path only. */
#ifndef NUMACTL2_LIBNUMACHECK_H
#define NUMACTL2_LIBNUMACHECK_H

#include <limits.h>
#include <stdbool.h>
#include "libnumactl2.h"

/* Whether the weights numactl2 sets for the task survive cmd's start. */
static inline bool libnuma_keeps_weights(enum libnuma_verdict v)
{
	return v == LIBNUMA_NONE || v == LIBNUMA_KEEPS || v == LIBNUMA_NOT_ASKED;
}

/* Fills f for the command cmd (as execvp takes it) run with the
 * environment envp (PATH, LD_LIBRARY_PATH, LD_PRELOAD); 0 or -errno (the
 * loader could not be run: f->prog names what was asked). The program's
 * loader is run (with a time limit) only where the kernel would run it. */
int libnuma_check(const char *cmd, char *const envp[], struct libnuma_finding *f);

/* The same, reading files only (--dry-run): a dynamic program's loader is
 * not run, and the verdict is NOT_ASKED, with the loader in f->lib. */
int libnuma_check_static(const char *cmd, char *const envp[], struct libnuma_finding *f);

/* The verdict on one libnuma file (DROPS, KEEPS or UNREADABLE). */
enum libnuma_verdict libnuma_verdict_of(const char *lib);

#endif
