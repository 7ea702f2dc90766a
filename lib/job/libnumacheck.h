/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Does the program a job runs start with a libnuma whose constructor drops
 * inherited task-local weights (libnuma 2.0.15-2.0.17)? Asked before any
 * policy or weight is set, for the task-local path only. */
#ifndef NUMACTL2_LIBNUMACHECK_H
#define NUMACTL2_LIBNUMACHECK_H

#include <limits.h>
#include <stdbool.h>

enum libnuma_verdict {
	LIBNUMA_NONE,		/* no libnuma at start-up (or nothing the exec can run) */
	LIBNUMA_KEEPS,		/* a libnuma that keeps the weights (<= 2.0.14, >= 2.0.18) */
	LIBNUMA_DROPS,		/* 2.0.15-2.0.17: its constructor resets the policy */
	LIBNUMA_UNREADABLE,	/* a libnuma whose version cannot be read */
	LIBNUMA_BUILT_IN,	/* a static program with libnuma linked in */
	LIBNUMA_UNCHECKED,	/* the check could not finish (error says why) */
	LIBNUMA_NOT_ASKED,	/* libnuma_check_static(): lib is the loader to ask */
};

struct libnuma_finding {
	enum libnuma_verdict verdict;
	int error;		/* UNCHECKED: -ETIMEDOUT (the loader, in lib, took
				 * longer than libnuma_check_limit_ms()), -EFBIG
				 * (more than numactl2 reads), or -errno */
	char prog[PATH_MAX];	/* the ELF program the exec ends up running */
	char lib[PATH_MAX];	/* the libnuma it loads (DROPS, KEEPS, UNREADABLE),
				 * or its loader (UNCHECKED, NOT_ASKED) */
};

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

/* A static program's code and constants are a few MiB (glibc's static
 * programs: ~1 MiB; a large statically linked HPC code: tens of MiB); one
 * whose headers name more is not read through (UNCHECKED, -EFBIG). */
#define LIBNUMA_SCAN_MAX (256UL << 20)

/* How long the loader has to answer, in milliseconds. */
unsigned libnuma_check_limit_ms(void);

/* The verdict on one libnuma file (DROPS, KEEPS or UNREADABLE). */
enum libnuma_verdict libnuma_verdict_of(const char *lib);

#endif
