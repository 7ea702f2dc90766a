// SPDX-License-Identifier: GPL-2.0-or-later
/* From a command's name to what its exec loads: the file (PATH), a
 * script's interpreter, and the libraries its dynamic loader lists.
 *
 * The loader is asked rather than imitated: "ld.so --list PROG" is the
 * loader's own search (DT_NEEDED of every object, RUNPATH/RPATH with
 * $ORIGIN, LD_LIBRARY_PATH, LD_PRELOAD, ld.so.cache, hwcaps directories),
 * the one the exec will make; it maps the objects and runs none of their
 * code. It is PROG's own PT_INTERP, the program the exec would start
 * anyway, with the same environment. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/progload.h"

static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int copy_path(char *buf, size_t len, const char *path)
{
	return (size_t)snprintf(buf, len, "%s", path) < len ? 0 : -ENAMETOOLONG;
}

/* NAME's value in envp, or NULL. */
static const char *env_value(char *const envp[], const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* execvp's search: PATH's directories in order (an empty one is the
 * current directory), /bin:/usr/bin without PATH (glibc's _CS_PATH). */
int prog_resolve(const char *cmd, char *const envp[], char *path, size_t len)
{
	const char *dirs = env_value(envp, "PATH");

	if (strchr(cmd, '/'))
		return copy_path(path, len, cmd);
	if (!dirs)
		dirs = "/bin:/usr/bin";
	for (;;) {
		size_t n = strcspn(dirs, ":");

		if ((size_t)snprintf(path, len, "%.*s/%s", n ? (int)n : 1, n ? dirs : ".", cmd) < len &&
		    runnable(path))
			return 0;
		if (!dirs[n])
			break;
		dirs += n + 1;
	}
	return -ENOENT;
}

/* "#!INTERP [ARG]": the kernel passes what follows INTERP as one argument. */
static int read_shebang(const char *path, char *line, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, line, len - 1);
	close(fd);
	if (n < 2 || line[0] != '#' || line[1] != '!')
		return -ENOEXEC;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	return 0;
}

int prog_script_interp(const char *path, char *const envp[], char *interp, size_t len)
{
	char line[256], *name, *arg;
	int rc = read_shebang(path, line, sizeof(line));

	if (rc < 0)
		return rc;
	name = line + 2 + strspn(line + 2, " \t");
	arg = name + strcspn(name, " \t");
	if (*arg)
		*arg++ = '\0';
	arg += strspn(arg, " \t");
	arg[strcspn(arg, " \t")] = '\0';
	if (!*name)
		return -ENOEXEC;
	/* "#!/usr/bin/env python3": env links nothing of interest; its NAME does. */
	if (strcmp(strrchr(name, '/') ? strrchr(name, '/') + 1 : name, "env") == 0 &&
	    *arg && *arg != '-')
		return prog_resolve(arg, envp, interp, len);
	return copy_path(interp, len, name);
}

/* "\tlibnuma.so.1 => /lib/x86_64-linux-gnu/libnuma.so.1 (0x...)", or
 * "\t/path/libnuma.so.1 (0x...)" for a preloaded one: its path, in place. */
static char *listed_lib(char *line, const char *prefix)
{
	char *name = line + strspn(line, " \t"), *path, *base;

	name[strcspn(name, " \n")] = '\0';
	path = name + strlen(name) + 1;
	base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	if (strncmp(base, prefix, strlen(prefix)) != 0)
		return NULL;
	if (strncmp(path, "=> /", 4) == 0) {
		path += 3;
		path[strcspn(path, " \n")] = '\0';
		return path;
	}
	return name[0] == '/' ? name : NULL;
}

static int spawn_list(const char *loader, const char *prog, char *const envp[], pid_t *pid,
		      int *out)
{
	char *argv[] = { (char *)loader, (char *)"--list", (char *)prog, NULL };
	posix_spawn_file_actions_t fa;
	int pipefd[2], rc;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(pid, loader, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		return -rc;
	}
	*out = pipefd[0];
	return 0;
}

/* Reads the whole listing (a loader that is left blocked on a full pipe
 * never ends), keeping the first library that matches. */
static int read_listing(int fd, const char *prefix, char *lib, size_t len)
{
	FILE *f = fdopen(fd, "r");
	char *line = NULL, *found;
	size_t size = 0;
	int rc = 0;

	if (!f) {
		close(fd);
		return -errno;
	}
	while (getline(&line, &size, f) > 0) {
		if (rc == 0 && (found = listed_lib(line, prefix)))
			rc = copy_path(lib, len, found) < 0 ? -ENAMETOOLONG : 1;
	}
	free(line);
	fclose(f);
	return rc;
}

/* The loader's exit status is not looked at: a missing library makes it
 * fail after listing the others, and the exec then fails by itself. */
int prog_loaded_lib(const char *loader, const char *prog, const char *prefix,
		    char *const envp[], char *lib, size_t len)
{
	pid_t pid;
	int fd = -1, rc = spawn_list(loader, prog, envp, &pid, &fd);

	if (rc < 0)
		return rc;
	rc = read_listing(fd, prefix, lib, len);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return rc;
}
