// SPDX-License-Identifier: GPL-2.0-or-later
/* From a command's name to what its exec loads: the file (PATH), a
 * script's interpreter, and the libraries its dynamic loader lists.
 *
 * The loader is asked rather than imitated: "ld.so --list PROG" is the
 * loader's own search (DT_NEEDED of every object, RUNPATH/RPATH with
 * $ORIGIN, LD_LIBRARY_PATH, LD_PRELOAD, ld.so.cache, hwcaps directories),
 * the one the exec will make; it maps the objects and runs none of their
 * code. It is PROG's own PT_INTERP, the program the exec would start
 * anyway, with the same environment, and it is run only where the kernel
 * would run it (libnumacheck.c checks it first): a regular ELF file, never
 * a script. Whoever can change that file can change what the exec runs,
 * so running it gives them nothing more; but it is the user's program,
 * so it gets a time limit, its own process group (killed at the end, with
 * anything it left holding the pipe) and a bounded listing.
 *
 * Every file opened here is opened without blocking: a FIFO named as a
 * script must not hang numactl2 (or a Slurm task) waiting for a writer. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "job/progload.h"
#include "syscalls.h"

/* ld.so --list takes milliseconds, tens of them on a busy machine. */
#define LIST_LIMIT_MS 5000
/* ld.so --list writes a line of ~80 bytes per library. */
#define LISTING_MAX (1 << 20)
/* How often a loader that has not closed its output is looked at. */
#define POLL_SLICE_MS 20

#ifdef NUMACTL2_TEST_BUILD
/* Test build only: NUMACTL2_TEST_LIST_LIMIT_MS=N (1-60000) is the limit,
 * so that the time-limit test takes a fraction of a second. */
unsigned prog_list_limit_ms(void)
{
	const char *s = getenv("NUMACTL2_TEST_LIST_LIMIT_MS");
	long ms = s ? strtol(s, NULL, 10) : 0;

	return ms > 0 && ms <= 60000 ? (unsigned)ms : LIST_LIMIT_MS;
}
#else
unsigned prog_list_limit_ms(void)
{
	return LIST_LIMIT_MS;
}
#endif

int prog_file_error(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	return access(path, X_OK) == 0 ? 0 : -errno;
}

static bool runnable(const char *path)
{
	return prog_file_error(path) == 0;
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

/* execvp's errors: EACCES is remembered while the search goes on, the
 * errors of a missing file go on, any other ends it (glibc's execvpe). */
static bool search_goes_on(int rc)
{
	return rc == -ENOENT || rc == -ENOTDIR || rc == -ESTALE || rc == -ENODEV ||
	       rc == -ETIMEDOUT || rc == -EACCES;
}

int nc2_prog_exec_error(const char *cmd, char *const envp[])
{
	const char *dirs;
	char path[PATH_MAX];
	bool eacces = false;

	if (!*cmd)
		return -ENOENT;
	if (strchr(cmd, '/'))
		return prog_file_error(cmd);
	/* PATH only where it is searched: a path is not. */
	dirs = env_value(envp, "PATH");
	if (!dirs)
		dirs = "/bin:/usr/bin";
	for (;;) {
		size_t n = strcspn(dirs, ":");
		int rc = -ENAMETOOLONG;

		if ((size_t)snprintf(path, sizeof(path), "%.*s/%s", n ? (int)n : 1, n ? dirs : ".",
				     cmd) < sizeof(path))
			rc = prog_file_error(path);
		if (rc == 0 || !search_goes_on(rc))
			return rc;
		eacces |= rc == -EACCES;
		if (!dirs[n])
			break;
		dirs += n + 1;
	}
	return eacces ? -EACCES : -ENOENT;
}

/* "#!INTERP [ARG]": the kernel passes what follows INTERP as one argument.
 * Only a regular file can be a script the exec runs. */
static int read_shebang(const char *path, char *line, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t n = -1;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
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
	size_t n = strcspn(name, " \n");

	path = name[n] ? name + n + 1 : name + n;
	name[n] = '\0';
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

/* The loader in a process group of its own (so that it and whatever it
 * starts can be killed together), its output in a non-blocking pipe. */
static int spawn_list(const char *loader, const char *prog, char *const envp[], pid_t *pid,
		      int *out)
{
	char *argv[] = { (char *)loader, (char *)"--list", (char *)prog, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int pipefd[2], rc;

	if (pipe2(pipefd, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	rc = posix_spawn(pid, loader, &fa, &attr, argv, envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		return -rc;
	}
	*out = pipefd[0];
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Has the loader ended? Looked at without reaping it: while it is a
 * zombie its PID, and so its process group's ID, cannot be reused. ECHILD:
 * a host process that reaps every child (a SIGCHLD handler in slurmstepd)
 * took it already. */
static bool ended(pid_t pid)
{
	siginfo_t si = { 0 };

	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	return si.si_pid == pid;
}

struct listing {
	char *buf;
	size_t used;
};

/* What the pipe holds now: 1 at its end (every writer gone), 0 when it is
 * empty for now, -EFBIG past LISTING_MAX, -errno. */
static int drain(int fd, struct listing *l)
{
	for (;;) {
		ssize_t n = read(fd, l->buf + l->used, LISTING_MAX - l->used);

		if (n == 0)
			return l->used == LISTING_MAX ? -EFBIG : 1;
		if (n < 0)
			return errno == EAGAIN ? 0 : errno == EINTR ? 0 : -errno;
		l->used += (size_t)n;
	}
}

/* The loader's listing, until it ends or the time limit: 0, -ETIMEDOUT,
 * -EFBIG. A loader that ended while something it started still holds the
 * pipe has said all it will. */
static int read_listing(pid_t pid, int fd, struct listing *l)
{
	long long deadline = now_ms() + prog_list_limit_ms();
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		long long left = deadline - now_ms();
		int rc = drain(fd, l);

		if (rc != 0)
			return rc < 0 ? rc : 0;
		if (ended(pid)) {
			kill(-pid, SIGKILL);
			rc = drain(fd, l);
			return rc < 0 ? rc : 0;
		}
		if (left <= 0)
			return -ETIMEDOUT;
		(void)poll(&pfd, 1, left < POLL_SLICE_MS ? (int)left : POLL_SLICE_MS);
	}
}

/* The first library of the listing that matches prefix: 1, or 0. */
static int find_lib(char *text, const char *prefix, char *lib, size_t len)
{
	char *line, *next, *found;

	for (line = text; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if ((found = listed_lib(line, prefix)))
			return copy_path(lib, len, found) < 0 ? -ENAMETOOLONG : 1;
	}
	return 0;
}

/* The loader's exit status is not looked at: a missing library makes it
 * fail after listing the others, and the exec then fails by itself. */
int prog_loaded_lib(const char *loader, const char *prog, const char *prefix,
		    char *const envp[], char *lib, size_t len)
{
	struct listing l = { .buf = malloc(LISTING_MAX + 1) };
	pid_t pid;
	int fd = -1, rc;

	if (!l.buf)
		return -ENOMEM;
	rc = spawn_list(loader, prog, envp, &pid, &fd);
	if (rc == 0) {
		rc = read_listing(pid, fd, &l);
		kill(-pid, SIGKILL);
		close(fd);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (rc == 0) {
		l.buf[l.used] = '\0';
		rc = find_lib(l.buf, prefix, lib, len);
	}
	free(l.buf);
	return rc;
}
