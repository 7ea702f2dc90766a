/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether a command runs LeakSanitizer, which refuses to run under ptrace
 * ("LeakSanitizer does not work under ptrace"): its job cannot be traced
 * for --report. */
#ifndef NUMACTL2_LEAKSAN_H
#define NUMACTL2_LEAKSAN_H

#include <stdbool.h>

/* Does the program an exec of command would run with the environment envp
 * (through PATH; a script's #! interpreter) carry a sanitizer runtime with
 * LeakSanitizer: __lsan_ or __asan_init among its dynamic symbols (clang
 * links the runtime in), or libasan/liblsan among the libraries it needs
 * (gcc)? Not when ASAN_OPTIONS or LSAN_OPTIONS turns leak detection off. */
bool leaksan_runs(char **command, char *const envp[]);

#endif
