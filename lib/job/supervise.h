/* Running the command as a child, for the options that must act when it
 * ends (--report, --restore-weights). Without them numactl2 execs the
 * command itself, as numactl does. */
#ifndef NUMACTL2_SUPERVISE_H
#define NUMACTL2_SUPERVISE_H

#include <sys/types.h>

struct job {
	char **command;
	/* Called with the job stopped at its exit (ptrace exit-stop), its
	 * address space still there; exit_status is in wait(2)'s format.
	 * NULL: the job is not traced. */
	void (*at_exit)(pid_t pid, int exit_status, void *arg);
	void *arg;
	/* Filled by supervise_run(). */
	pid_t pid;
	int signal;		/* the signal that killed the job, or 0 */
	int exec_errno;		/* the exec failed with this errno, or 0 */
	const char *failed;	/* else the call that failed before the exec */
	int failed_errno;
};

/* Runs job->command and waits for it. SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * sent to numactl2 go on to the job; stdio is the job's own. Returns its exit
 * status, 128 + the signal that killed it, or -1 when it never ran (then
 * exec_errno or failed says why). */
int supervise_run(struct job *job);

#endif
