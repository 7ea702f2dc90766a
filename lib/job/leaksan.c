// SPDX-License-Identifier: GPL-2.0-or-later
/* LeakSanitizer's runtime, found in the program's dynamic string table
 * (nc2_leaksan_runs(), in libnumactl2.h). The program is read, never run. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "job/elffile.h"
#include "job/progload.h"
#include "libnumactl2.h"

static const char *const markers[] = { "__lsan_", "__asan_init", "libasan.so", "liblsan.so" };

static bool has_marker(const char *path)
{
	struct elf_file f;
	bool found = false;

	if (elf_open(path, &f) < 0)
		return false;
	for (size_t i = 0; !found && i < sizeof(markers) / sizeof(markers[0]); i++)
		found = elf_dynstr_has(&f, markers[i]) > 0;
	elf_close(&f);
	return found;
}

/* NAME's value in envp, or "". */
static const char *env_of(char *const envp[], const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return "";
}

/* The sanitizers read their options left to right, the last one winning. */
static bool leaks_off(char *const envp[])
{
	const char *vars[] = { "ASAN_OPTIONS", "LSAN_OPTIONS" };
	const char key[] = "detect_leaks=";

	for (size_t i = 0; i < 2; i++) {
		const char *v = env_of(envp, vars[i]), *last = NULL;

		for (const char *p = strstr(v, key); p; p = strstr(p + 1, key))
			last = p + strlen(key);
		if (last && (strncmp(last, "0", 1) == 0 || strncmp(last, "false", 5) == 0))
			return true;
	}
	return false;
}

bool nc2_leaksan_runs(char **command, char *const envp[])
{
	char path[PATH_MAX], interp[PATH_MAX];

	if (leaks_off(envp) || prog_resolve(command[0], envp, path, sizeof(path)) < 0)
		return false;
	if (prog_script_interp(path, envp, interp, sizeof(interp)) == 0)
		return has_marker(interp);
	return has_marker(path);
}
