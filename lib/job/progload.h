/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which file an exec of a command runs (execvp's PATH search, a script's
 * #! interpreter) and which shared library its dynamic loader would load
 * for it, asked of that loader itself (PT_INTERP --list). */
#ifndef NUMACTL2_PROGLOAD_H
#define NUMACTL2_PROGLOAD_H

#include <stddef.h>
#include "libnumactl2.h"

/* The file execvp(cmd) would run with the environment envp (its PATH),
 * into path: 0 or -ENOENT (the exec reports it), -ENAMETOOLONG. */
int prog_resolve(const char *cmd, char *const envp[], char *path, size_t len);

/* The same for the file at path itself, as the kernel opens a program or
 * an interpreter (relative to the working directory, no PATH search). */
int prog_file_error(const char *path);

/* The program a script at path runs it with (its #! line; for
 * "#!/usr/bin/env NAME", NAME as env finds it), into interp: 0, -ENOEXEC
 * for a file that is not a script, -ENOENT, -ENAMETOOLONG. */
int prog_script_interp(const char *path, char *const envp[], char *interp, size_t len);

/* The file the loader loader would load for prog as a library whose name
 * starts with prefix ("libnuma.so"), from "loader --list prog" run with
 * the environment the exec will have, envp (LD_LIBRARY_PATH, LD_PRELOAD),
 * into lib. The caller has checked that loader is an ELF program the
 * kernel would run as prog's interpreter. 1 found, 0 not loaded (or not
 * found: the exec itself fails), -ETIMEDOUT when the loader did not end
 * within prog_list_limit_ms() (it and its process group are killed),
 * -EFBIG for a listing no loader writes, or -errno when the loader could
 * not be run. */
int prog_loaded_lib(const char *loader, const char *prog, const char *prefix,
		    char *const envp[], char *lib, size_t len);

/* How long a loader has to list a program's libraries, in milliseconds. */
unsigned prog_list_limit_ms(void);

#endif
