// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysguard: run a program and prove it never makes certain system calls.
 *
 *   sysguard NR[,NR...] PROGRAM [ARGS...]
 *
 * Runs PROGRAM under ptrace, following every thread and child, and stops
 * at each system call's entry.  A call whose number is in the list kills
 * the whole traced tree: sysguard prints "sysguard: forbidden syscall NR
 * by PID" and exits 99.  Otherwise it exits with PROGRAM's status and
 * prints on stderr how many calls it saw.  The guest tests use it to show
 * that numactl2 on a kernel without the series never tries the series'
 * numbers (472-474 on 7.2; 500-502 were the 6.12 series'), nor the numbers
 * 457-459 the seed series used, which
 * on 6.12 are statmount, listmount and lsm_get_self_attr.
 * (The guest kernels have no seccomp, so ptrace does the watching.)
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXNR 16
#define FORBIDDEN_EXIT 99

static long forbidden[MAXNR];
static int nforbidden;

static void parse_list(char *list)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		char *end;
		long nr = strtol(tok, &end, 10);

		if (*end || nr < 0 || nforbidden == MAXNR)
			errx(2, "bad syscall list near '%s'", tok);
		forbidden[nforbidden++] = nr;
	}
}

static int is_forbidden(long nr)
{
	for (int i = 0; i < nforbidden; i++)
		if (forbidden[i] == nr)
			return 1;
	return 0;
}

/* The child: be traced, stop so the tracer can set its options, exec. */
static void start_child(char **argv)
{
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		err(126, "PTRACE_TRACEME");
	raise(SIGSTOP);
	execvp(argv[0], argv);
	err(errno == ENOENT ? 127 : 126, "%s", argv[0]);
}

/* At a syscall stop: 1 when the call entering is forbidden. */
static int check_syscall(pid_t pid, unsigned long *calls)
{
	struct __ptrace_syscall_info info;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info) < 0)
		err(2, "PTRACE_GET_SYSCALL_INFO");
	if (info.op != PTRACE_SYSCALL_INFO_ENTRY)
		return 0;
	(*calls)++;
	if (!is_forbidden((long)info.entry.nr))
		return 0;
	fprintf(stderr, "sysguard: forbidden syscall %llu by %d\n",
		(unsigned long long)info.entry.nr, pid);
	return 1;
}

/* Trace until the first child exits; its status is ours. */
static int trace(pid_t child)
{
	const long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL | PTRACE_O_TRACEFORK |
			  PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC;
	unsigned long calls = 0;
	int status, rc = -1;
	pid_t pid;

	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		errx(2, "the child did not stop");
	if (ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)opts) < 0)
		err(2, "PTRACE_SETOPTIONS");
	ptrace(PTRACE_SYSCALL, child, NULL, NULL);
	while ((pid = waitpid(-1, &status, __WALL)) > 0) {
		int sig = 0;

		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (pid == child)
				rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			continue;
		}
		if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			if (check_syscall(pid, &calls)) {
				kill(child, SIGKILL);
				exit(FORBIDDEN_EXIT);
			}
		} else if (status >> 16 == 0 && WSTOPSIG(status) != SIGSTOP &&
			   WSTOPSIG(status) != SIGTRAP) {
			sig = WSTOPSIG(status);	/* a real signal: deliver it */
		}
		ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig);
	}
	fprintf(stderr, "sysguard: %lu system calls, none forbidden\n", calls);
	return rc < 0 ? 2 : rc;
}

int main(int argc, char **argv)
{
	pid_t child;

	if (argc < 3)
		errx(2, "usage: sysguard NR[,NR...] PROGRAM [ARGS...]");
	parse_list(argv[1]);
	child = fork();
	if (child < 0)
		err(2, "fork");
	if (child == 0)
		start_child(argv + 2);
	return trace(child);
}
