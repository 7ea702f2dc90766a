/* numactl2 as the command's parent: fork, exec in the child, forward the
 * signals a job controller sends, and end the way the job ended.
 *
 * The address space is seen before teardown with ptrace: the child is
 * seized (PTRACE_SEIZE, so group-stops and the exec stay invisible to the
 * job) with PTRACE_O_TRACEEXIT only, and /proc/PID/numa_maps is read while
 * the child sits in its exit-stop. A pidfd names the child, so a forwarded
 * signal cannot reach a recycled pid. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/supervise.h"
#include "syscalls.h"

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

static volatile int job_pidfd = -1;

/* A signal the terminal sent reached the whole foreground process group,
 * the job included; sending it again would deliver it twice. */
static void forward(int sig, siginfo_t *info, void *ctx)
{
	int saved = errno;

	(void)ctx;
	if (info->si_code != SI_KERNEL && job_pidfd >= 0)
		(void)sys_pidfd_send_signal(job_pidfd, sig, NULL, 0);
	errno = saved;
}

/* A signal numactl2 was started with ignored stays ignored, by numactl2
 * and (through exec) by the job. */
static void catch_forwarded(void)
{
	struct sigaction sa = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct sigaction old;

	for (size_t i = 0; i < NFORWARDED; i++) {
		if (sigaction(forwarded[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(forwarded[i], &sa, NULL);
	}
}

static void block_forwarded(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* The child waits at the gate until the parent has seized it, then execs;
 * a failed exec sends its errno back on a close-on-exec pipe, and the
 * child ends: the library's one _exit, in the forked child only (kept out
 * of line, so that test/libpurity.bats sees it here and nowhere else). */
static void __attribute__((noreturn, noinline)) child(char **command, const sigset_t *mask,
						      int gate, int report)
{
	char c;
	int e;

	sigprocmask(SIG_SETMASK, mask, NULL);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	execvp(command[0], command);
	e = errno;
	(void)!write(report, &e, sizeof(e));
	_exit(127);
}

static int fail(struct job *job, const char *what)
{
	job->failed = what;
	job->failed_errno = errno;
	return -1;
}

/* Exit-stops and signal-delivery-stops of the traced child. The job's
 * signals go back to it; a group-stop is kept with PTRACE_LISTEN. */
static void resume_stopped(struct job *job, int st, bool ran)
{
	int event = st >> 16;

	if (event == PTRACE_EVENT_EXIT) {
		unsigned long msg = 0;

		if (ran && job->at_exit && ptrace(PTRACE_GETEVENTMSG, job->pid, 0, &msg) == 0)
			job->at_exit(job->pid, (int)msg, job->arg);
		ptrace(PTRACE_CONT, job->pid, 0, 0);
	} else if (event == PTRACE_EVENT_STOP) {
		int sig = WSTOPSIG(st);
		bool group_stop = sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;

		ptrace(group_stop ? PTRACE_LISTEN : PTRACE_CONT, job->pid, 0, 0);
	} else {
		ptrace(PTRACE_CONT, job->pid, 0, (void *)(long)WSTOPSIG(st));
	}
}

/* Until the job ends; its status, or 128 + its signal. */
static int wait_job(struct job *job, bool ran)
{
	int st;

	for (;;) {
		if (waitpid(job->pid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return fail(job, "waitpid");
		}
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		if (WIFSIGNALED(st)) {
			job->signal = WTERMSIG(st);
			return 128 + job->signal;
		}
		if (WIFSTOPPED(st))
			resume_stopped(job, st, ran);
	}
}

/* Opens the gate once the child is traced (when it is to be); returns
 * whether the exec succeeded, with its errno in job->exec_errno if not. */
static int release(struct job *job, int gate, int report)
{
	ssize_t n;
	int e;

	if (job->at_exit && ptrace(PTRACE_SEIZE, job->pid, 0, PTRACE_O_TRACEEXIT) < 0) {
		fail(job, "ptrace");
		kill(job->pid, SIGKILL);
		close(gate);
		return -1;
	}
	close(gate);
	while ((n = read(report, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(e))
		job->exec_errno = e;
	return 0;
}

static int start(struct job *job, int gate[2], int report[2])
{
	sigset_t mask;

	catch_forwarded();
	block_forwarded(&mask);
	fflush(NULL);
	job->pid = fork();
	if (job->pid == 0) {
		close(gate[1]);
		close(report[0]);
		child(job->command, &mask, gate[0], report[1]);
	}
	if (job->pid > 0)
		job_pidfd = sys_pidfd_open(job->pid, 0);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	close(gate[0]);
	close(report[1]);
	if (job->pid < 0) {
		close(gate[1]);
		close(report[0]);
		return fail(job, "fork");
	}
	return 0;
}

int supervise_run(struct job *job)
{
	int gate[2], report[2];
	int rc, status;

	job->signal = job->exec_errno = 0;
	job->failed = NULL;
	if (sys_pipe2(gate, O_CLOEXEC) < 0)
		return fail(job, "pipe");
	if (sys_pipe2(report, O_CLOEXEC) < 0) {
		close(gate[0]);
		close(gate[1]);
		return fail(job, "pipe");
	}
	if (start(job, gate, report) < 0)
		return -1;
	rc = release(job, gate[1], report[0]);
	close(report[0]);
	status = wait_job(job, rc == 0 && !job->exec_errno);
	if (rc < 0 || job->exec_errno)
		return -1;
	return status;
}
