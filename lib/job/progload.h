/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which file an exec of a command runs (execvp's PATH search, a script's
 * #! interpreter) and which shared library its dynamic loader would load
 * for it, asked of that loader itself (PT_INTERP --list). */
#ifndef NUMACTL2_PROGLOAD_H
#define NUMACTL2_PROGLOAD_H

#include <stddef.h>

/* The file execvp(cmd) would run with the environment envp (its PATH),
 * into path: 0 or -ENOENT (the exec reports it), -ENAMETOOLONG. */
int prog_resolve(const char *cmd, char *const envp[], char *path, size_t len);

/* The program a script at path runs it with (its #! line; for
 * "#!/usr/bin/env NAME", NAME as env finds it), into interp: 0, -ENOEXEC
 * for a file that is not a script, -ENOENT, -ENAMETOOLONG. */
int prog_script_interp(const char *path, char *const envp[], char *interp, size_t len);

/* The file the loader loader would load for prog as a library whose name
 * starts with prefix ("libnuma.so"), from "loader --list prog" run with
 * the environment the exec will have, envp (LD_LIBRARY_PATH, LD_PRELOAD),
 * into lib. 1 found, 0 not loaded (or not found: the exec itself fails), or
 * -errno when the loader could not be run. */
int prog_loaded_lib(const char *loader, const char *prog, const char *prefix,
		    char *const envp[], char *lib, size_t len);

#endif
