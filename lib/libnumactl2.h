/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libnumactl2's public face: all that a front end (the numactl2 CLI, the
 * Slurm plugin) sees of the library, and links against. A front end fills
 * one request (a policy as asked, struct policy; the weights as given), the
 * library resolves it into a plan, applies it and returns one error value;
 * the rest are the few calls --show, --hardware, --pid, --report, --shm,
 * --measure and the admin operations need, and the values their messages
 * word. The library's other headers are its own: the front ends include
 * none of them (test/layers.bats), and each module of the library includes
 * this one for its public part, as libmount's mountP.h includes libmount.h.
 *
 * The library never prints, exits or calls err(): each call that can fail
 * returns 0 or -1 with what went wrong in the one error value it was given
 * (struct nc2_error), and the front end words it (msg/). Functions whose names say they print write only to
 * the FILE * they are given. */
#ifndef LIBNUMACTL2_H
#define LIBNUMACTL2_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <numa.h>
#include <numaif.h>

#include "parse.h"

/* The kernel's modes and flags that Debian 12's <numaif.h> (libnuma
 * 2.0.16) does not name yet. */
#ifndef MPOL_DEFAULT
#define MPOL_DEFAULT 0
#endif
#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY 5
#endif
#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6
#endif
#ifndef MPOL_F_STATIC_NODES
#define MPOL_F_STATIC_NODES (1 << 15)
#endif
#ifndef MPOL_F_RELATIVE_NODES
#define MPOL_F_RELATIVE_NODES (1 << 14)
#endif
#ifndef MPOL_F_NUMA_BALANCING
#define MPOL_F_NUMA_BALANCING (1 << 13)
#endif
#define MPOL_MODE_FLAGS \
	(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | MPOL_F_NUMA_BALANCING)

#define POLICY_NONE (-1)

/* A memory policy as the user asked for it (set by lib/policy/policy.c, or
 * with task-local weights by mpol2.c). */
struct policy {
	int mode;			/* MPOL_*, or POLICY_NONE */
	unsigned flags;			/* MPOL_F_NUMA_BALANCING */
	struct bitmask *nodes;		/* NULL for local */
	const char *option;		/* the option that asked for it, for messages */
	bool has_weights;		/* --weights given */
	bool task_local;		/* the weights travel with the policy (mpol2.c) */
	int home_node;			/* --home-node, -1 for none */
	uint8_t *weight;		/* by node, when has_weights (policy_weights_alloc) */
	unsigned nweights;		/* entries in weight: nodes->size */
};

/* The weight P gives node N: 1 where it names none. */
static inline unsigned nc2_policy_weight(const struct policy *p, unsigned n)
{
	return nc2_weight_effective(n < p->nweights ? p->weight[n] : 0);
}

/* Made and read by the library only: the front ends hold pointers. */
struct report;

/* One error value for every call that can fail (lib/error/error.c): what
 * failed, a named fault; the system's errno where the system failed; the
 * node, value, name or answer concerned. Made by nc2_error_new(), filled by
 * the call that failed (which returns -1), read through the accessors
 * below, worded by msg/ (msg_error()). */
struct nc2_error;
struct table_said;
struct owner_refused;
struct libnuma_finding;
struct migrate_result;

enum nc2_fault {
	NC2_OK,
	/* A request (lib/request): the weights asked for. */
	REQ_NOMEM_WEIGHTS,	/* the weight list cannot be kept */
	REQ_NOMEM_LIST,		/* the weight list cannot be read */
	REQ_WEIGHT_LIST,	/* parse: what is wrong with the list */
	REQ_WEIGHT_NOT_IN_SET,	/* node */
	REQ_AUTO_UNREAD,	/* errno */
	REQ_AUTO_TOO_MANY,	/* --weights=auto over more than BW_MAX_NODES nodes */
	REQ_AUTO_NO_CPU_NODE,	/* the job's CPUs are on no node the sysfs lists */
	REQ_AUTO_NO_BANDWIDTH,	/* node reports no bandwidth */
	REQ_AUTO_BUDGET,	/* value: the budget, count: the nodes */
	REQ_BUDGET_BELOW_NODES,	/* value: the budget, count: the nodes (measured) */
	REQ_MEASURE,		/* errno */
	/* A request: where they go, and the policy. */
	REQ_LIBNUMA_UNREAD,	/* errno, libnuma: the program (none kept: name, the command) */
	REQ_LIBNUMA_REFUSED,	/* --no-global-weights, the program's libnuma (libnuma) drops them */
	REQ_NO_GLOBAL_WRITE,	/* --no-global-weights, the table does not hold them */
	REQ_NO_WEIGHTED_INTERLEAVE,	/* this kernel has no weighted interleave */
	REQ_NO_GLOBAL_TABLE,	/* this kernel has no global weights (before 6.9) */
	REQ_NO_AUTO_WEIGHTS,	/* this kernel has no auto switch (before 6.16) */
	REQ_GLOBAL_REFUSED,	/* node, table: a user who is not root, no owner */
	REQ_NO_GLOBAL_WEIGHT,	/* node: the table has no weight for it */
	REQ_PREFERRED_MANY,	/* the kernel has no MPOL_PREFERRED_MANY */
	REQ_POLICY,		/* errno, mode: the policy call's */
	REQ_OWNER,		/* the table's owner (numactl2d) said no: owner */
	/* A request's words, through its setters (lib/request/fill.c): name,
	 * the user's words where the fault names them. */
	REQ_NODE_LIST,		/* name: a node list this machine does not have */
	REQ_NODE_ABSENT,	/* name, parse.item: a node number past any machine's */
	REQ_NODE_SYNTAX,	/* name: not a node list */
	REQ_WEIGHTS_NEED_INTERLEAVE,	/* --weights without an interleave */
	REQ_BUDGET_NEEDS_AUTO,	/* --weight-budget without auto or measured weights */
	REQ_BUDGET_INVALID,	/* name */
	REQ_FORCE_WITH_WAIT,	/* --force and --wait */
	REQ_WAIT_INVALID,	/* name: not 1-WAIT_MAX_SECS seconds; option: the option */
	REQ_MEASURE_TOO_MANY,	/* more nodes than a measurement takes */
	REQ_MEASURE_NODE_ROOM,	/* node, value: the size in MiB */
	REQ_MEASURE_CGROUP_ROOM,	/* value: the size, count: the room, in MiB */
	/* -w local (nc2_auto_local_nodes()). */
	LOCAL_NO_CPU_NODE,	/* the job's CPUs are on no node the sysfs lists */
	LOCAL_NONE_NEAR,	/* no node with memory is nearest to them */
	LOCAL_UNREAD,		/* errno */
	/* --shm and --file (nc2_shm_attach() and the dumps): name, the key
	 * file or the file (SHM_NO_LENGTH: the option). */
	SHM_NO_LENGTH,		/* attached, with no length to set a policy on */
	SHM_UNALIGNED,		/* address or length not page aligned */
	SHM_KEYFILE_CREATE,	/* creat() of the --shm key file: errno */
	SHM_KEY,		/* ftok() on the key file just made: errno */
	SHM_SEGMENT_LENGTH,	/* a new segment, and no --length */
	SHM_SEGMENT_GET,	/* shmget(): errno */
	SHM_SEGMENT_STAT,	/* shmctl(IPC_STAT): errno */
	SHM_SEGMENT_ATTACH,	/* shmat(): errno */
	SHM_FILE_LENGTH,	/* a new file, and no --length */
	SHM_FILE_CREATE,	/* open(O_CREAT): errno */
	SHM_FILE_STAT,		/* fstat(): errno */
	SHM_FILE_EXTEND,	/* ftruncate(): errno */
	SHM_FILE_MAP,		/* mmap(): errno */
	SHM_GET_POLICY,		/* get_mempolicy() on a page, in a dump: errno */
	/* --pid (nc2_pid_apply()): value, the process; mode, the policy set
	 * (POLICY_NONE: --show). All before PID_SET changed nothing. */
	PID_OPEN,		/* its pidfd: ESRCH no such process */
	PID_READ,		/* get_mempolicy2: ENOSYS no calls, EINVAL/E2BIG no
				 * MPOL_F_PIDFD, ESRCH exited, EPERM not ours */
	PID_MIGRATE_PLAN,	/* ENOMEM, or reading node's global weight */
	PID_MIGRATE_RANGES,	/* its maps and numa_maps: ENOENT/ESRCH exited */
	PID_PRINT,		/* the table's leases cannot be listed */
	PID_SET,		/* set_mempolicy2 on the named task */
	PID_THREADS,		/* on its other threads: thread, or EAGAIN (it kept
				 * starting threads: THREADS_MAX_PASSES passes) */
	PID_MOVE,		/* move_pages: EIO some pages stayed, ESRCH exited,
				 * EPERM not ours; moved counts in every case */
	/* --report (nc2_report_open(), nc2_report_close()): name, the file or NULL. */
	REPORT_SYMLINK,		/* a symbolic link is on its path */
	REPORT_NOT_REGULAR,	/* not a regular file */
	REPORT_LINKS,		/* more than one link */
	REPORT_NOT_OWN,		/* another user's */
	REPORT_KERNEL_FS,	/* on procfs, sysfs, cgroupfs... */
	REPORT_OPEN,		/* errno */
	REPORT_WRITE,		/* its close: errno */
	REPORT_UNREAD,		/* value, the process whose numa_maps were not read: errno */
	REPORT_UNWRITTEN,	/* the report was not written: errno */
	/* --show and --hardware. */
	NC2_NO_NUMA,		/* no NUMA here (the output says so, as numactl does) */
	NC2_LEASES_UNLISTED,	/* the table's leases cannot be listed (out of memory);
				 * --dry-run's lines too */
	NC2_CALL,		/* errno, call: the system call that failed */
	/* The job's watcher (nc2_request_job_start()): name, the command; call. */
	JOB_WATCHER,
	/* The table's watcher (nc2_request_watch_table()): errno. */
	TABLE_WATCHER,
	/* numactl2d could not start or go on (nc2_owner_serve()): errno. */
	OWNER_SERVE,
	/* The table put back after a job (struct settle): errno, the owner's. */
	SETTLE_OWNER,
	/* Why the libnuma check could not finish (struct libnuma_finding,
	 * LIBNUMA_UNCHECKED): libnuma, the finding. */
	LIBNUMA_SLOW,		/* the loader took longer than nc2_libnuma_check_limit_ms() */
	LIBNUMA_TOO_BIG,	/* more than numactl2 reads: a loader's output, or a
				 * static program over LIBNUMA_SCAN_MAX */
	LIBNUMA_UNREAD,		/* errno */
};

/* A new error, NC2_OK; NULL when out of memory. nc2_error_free() lets it go. */
struct nc2_error *nc2_error_new(void);
void nc2_error_free(struct nc2_error *e);
enum nc2_fault nc2_error_fault(const struct nc2_error *e);
/* The system's errno, positive; 0 where the system did not fail. */
int nc2_error_errno(const struct nc2_error *e);
unsigned nc2_error_node(const struct nc2_error *e);
unsigned nc2_error_value(const struct nc2_error *e);
unsigned nc2_error_count(const struct nc2_error *e);
/* A policy's mode: REQ_POLICY's, --pid's (POLICY_NONE: --show). */
int nc2_error_mode(const struct nc2_error *e);
/* PID_THREADS: the thread that refused; 0: none. */
pid_t nc2_error_thread(const struct nc2_error *e);
/* What the fault names (a file, a key file, an option, a command), and
 * the system call that failed; NULL where it names none. */
const char *nc2_error_name(const struct nc2_error *e);
const char *nc2_error_call(const struct nc2_error *e);
/* The option whose words the fault refuses (REQ_WAIT_INVALID). */
const char *nc2_error_option(const struct nc2_error *e);
/* REQ_WEIGHT_LIST, REQ_NODE_ABSENT: what is wrong with the list. */
const struct parse_err *nc2_error_parse(const struct nc2_error *e);
/* REQ_NODE_LIST: libnuma's warning about the list, or "". */
const char *nc2_error_libnuma_said(const struct nc2_error *e);
/* REQ_GLOBAL_REFUSED: the change asked, and the table's weights. */
const struct table_said *nc2_error_table(const struct nc2_error *e);
/* REQ_OWNER: what the table's owner answered. */
const struct owner_refused *nc2_error_owner(const struct nc2_error *e);
/* REQ_LIBNUMA_UNREAD, REQ_LIBNUMA_REFUSED: the libnuma check of the plan
 * the error came from (valid while that plan is). */
const struct libnuma_finding *nc2_error_libnuma(const struct nc2_error *e);
/* PID_MOVE (and after PID_SET): the pages moved and not. */
const struct migrate_result *nc2_error_moved(const struct nc2_error *e);
/* Whether the fault is about the user's input (the CLI adds where help is). */
bool nc2_error_is_usage(const struct nc2_error *e);

/* Node and CPU lists, through libnuma (lib/policy/nodes.c; a node list
 * checked: nc2_nodes_parse()). */
struct bitmask *nc2_cpus_parse(const char *s, bool all);
int nc2_nodes_first(const struct bitmask *mask);
int nc2_nodes_next(const struct bitmask *mask, unsigned from);
void nc2_nodes_fprint(FILE *f, const char *name, const struct bitmask *mask);

/* Policies (lib/policy/policy.c). */
/* numactl's name of a mode, "[N]" for a mode it has no name for: a value,
 * so that no call keeps it for the next (nc2_policy_name(mode).s lives until
 * the end of the expression that asks). */
struct policy_word {
	char s[24];
};
struct policy_word nc2_policy_name(int mode);

/* Whether the running kernel lists the kernel/ series' calls, which set a
 * task's policy with weights of its own (lib/policy/mpol2.c). */
bool nc2_mpol2_present(void);

/* Passes over /proc/PID/task before --pid gives up on a process that keeps
 * starting threads (lib/policy/threads.c). */
#define THREADS_MAX_PASSES 100

/* --shm and --file regions (lib/policy/shm.c). */
/* What nc2_shm_attach() makes on the way, for the front end to announce. */
enum shm_created { SHM_CREATING_KEYFILE, SHM_CREATING_SEGMENT };

struct shm_region {
	const char *sysv_keyfile;	/* --shm */
	const char *file;		/* --file */
	unsigned long long length;	/* --length */
	unsigned long long offset;	/* --offset */
	unsigned mode;			/* --shmmode */
	unsigned long shmid;		/* --shmid: the ftok() project id */
	bool huge;			/* --huge */
	/* Told before nc2_shm_attach() makes the key file or the segment; may be NULL. */
	void (*creating)(const struct shm_region *r, enum shm_created what);
	char *addr;			/* after nc2_shm_attach() */
	long pagesize;
};

/* 0, or -1 with E's fault the SHM_ step that failed. */
int nc2_shm_attach(struct shm_region *r, struct nc2_error *e);
void nc2_shm_touch(const struct shm_region *r);
/* Write numactl's --dump and --dump-nodes lines to f; 0, or -1 with E's
 * fault SHM_GET_POLICY (the lines before it are written). */
int nc2_shm_print_dump(FILE *f, const struct shm_region *r, struct nc2_error *e);
int nc2_shm_print_dump_nodes(FILE *f, const struct shm_region *r, struct nc2_error *e);
/* numactl's --verify: a line on f for each page not placed as MODE on
 * NODES asks, counted in *bad; 0, or -1 as a dump. */
int nc2_shm_print_verify(FILE *f, const struct shm_region *r, int mode, const struct bitmask *nodes,
		     unsigned *bad, struct nc2_error *e);

/* Weights from bandwidths (lib/bandwidth/bwmodel.c). */
#define BW_MAX_NODES 64
/* Weights are u8 in the kernel (1-255): a budget of at most 255 keeps every
 * weight in range whatever the number of nodes. Only the budget is bounded
 * so: a sum that bw_choose_weights() chooses may reach n * 255. */
#define BW_WEIGHT_MAX 255
#define BW_BUDGET_MAX BW_WEIGHT_MAX

/* The sum of the weights (lib/bandwidth/bwsum.c). */
/* bw_choose_weights() without a budget: it chooses the sum. Not 0, which
 * callers take for "not given". */
#define BW_BUDGET_CHOOSE UINT_MAX

/* Why bw_choose_weights() took its sum. */
enum bw_sum_reason {
	BW_SUM_KEPT,		/* the optimum at 32 reaches the goal: today's weights */
	BW_SUM_REACHED,		/* the smallest sum whose optimum reaches the goal */
	BW_SUM_BEST,		/* the goal is out of reach: the best with weights <= 255 */
	BW_SUM_BUDGET,		/* a budget was given: bw_optimal_weights() at it */
};

struct bw_choice {
	enum bw_sum_reason why;
	unsigned sum;		/* of w */
	double total;		/* sum bw */
	double t;		/* T(w) */
	double t_default;	/* T of the optimum at 32; 0 with a budget or more than 32 nodes */
	bool stepped;		/* BW_SUM_REACHED: one above the smallest sum, which models less */
};

/* --measure (lib/bandwidth/measure.c). */
#define MEASURE_SIZE_DEFAULT (256ULL << 20)
#define MEASURE_SIZE_MIN (1ULL << 20)
#define MEASURE_SECS_DEFAULT 10
#define MEASURE_PASSES 5

/* Where a measurement is: before each pass on a node (pass 0 places the
 * pages), then once with done set. */
struct measure_progress {
	double t0;			/* when it began (CLOCK_MONOTONIC) */
	double secs;			/* since then */
	unsigned node, index, nodes;	/* the node, and the index-th of nodes */
	unsigned pass;
	bool done;
};

struct measure_req {
	const struct bitmask *nodes;	/* at most BW_MAX_NODES, each with memory */
	unsigned long long size;	/* bytes per node, three arrays */
	unsigned secs;			/* for all of it; every node gets one pass */
	unsigned budget;		/* for the weights: at most this sum, or
					 * BW_BUDGET_CHOOSE (bw_choose_weights()) */
	/* Told where the measurement is, with progress_arg; may be NULL. */
	void (*progress)(const struct measure_progress *pr, void *arg);
	void *progress_arg;
};

struct measurement {
	unsigned n;
	unsigned node[BW_MAX_NODES];
	double gbps[BW_MAX_NODES];	/* the best pass */
	unsigned passes[BW_MAX_NODES];
	uint8_t weight[BW_MAX_NODES];
	struct bw_choice choice;	/* weight's sum and why */
	unsigned threads;		/* one per CPU of the affinity */
	double secs;
};

/* The nodes --measure looks at without a node list: those with memory that
 * the cpuset allows. */
struct bitmask *nc2_measure_default_nodes(void);

/* Runs the triad on each node, with one thread on each CPU of the calling
 * thread's affinity, and chooses weights; 0, or -1 with E's fault REQ_MEASURE. */
int nc2_measure_run(const struct measure_req *req, struct measurement *m, struct nc2_error *e);

/* The bandwidths, the weights they give and the time, as --measure prints them. */
void nc2_measure_print(FILE *f, const struct measurement *m);

/* The job's memory cgroup (lib/bandwidth/memcg.c). */
#define MEMCG_UNLIMITED (~0ULL)

/* The least, up the hierarchy, of limit less usage, in bytes;
 * MEMCG_UNLIMITED when no memory cgroup limits it (or none can be read). */
unsigned long long nc2_memcg_room(void);

/* --weights=auto (lib/bandwidth/autoweights.c). */
/* -w local: the memory nodes nearest to the job's CPUs (initiators_local()),
 * as a new mask in *out. Returns 0, or -1 with E's fault LOCAL_NO_CPU_NODE,
 * LOCAL_NONE_NEAR or LOCAL_UNREAD. */
int nc2_auto_local_nodes(const struct bitmask *cpunodes, const struct bitmask *cpus,
		     struct bitmask **out, struct nc2_error *e);

/* How a run treats the weights other jobs hold (the table's owner,
 * lib/owner). */
struct lease_options {
	bool force;			/* --force: root's, over the weights others hold */
	bool wait;			/* --wait: until they are given back */
	unsigned wait_secs;		/* 0: as long as the owner allows */
};

/* What the table's watcher did once the job had ended (lib/job/watcher.c). */
enum settle_state {
	SETTLE_NONE,		/* nothing done */
	SETTLE_DONE,		/* what the ended jobs alone held put back, but: */
	SETTLE_FAILED,		/* error: the owner could not be asked */
};

struct settle {
	enum settle_state state;
	/* SETTLE_FAILED: why (SETTLE_OWNER), made by the library (NULL: out
	 * of memory), let go by the holder with nc2_error_free(). */
	struct nc2_error *error;
	char stays[400];		/* SETTLE_DONE: what could not go back, as the
					 * owner words it ("": everything) */
};

/* A change of the global table as the front ends word it: what the table's
 * owner changed for a run, or why a user who is not root cannot have it
 * (lib/request/ineffect.c). */
struct table_said {
	char changed[512];		/* "node0 1->9, ..."; "": nothing changed */
	bool auto_was_on;		/* the change turned the kernel's auto weights off */
	bool auto_until_reboot;		/* where Linux cannot turn them back on */
	bool restores;			/* a job's change, back once the last such job ends */
	bool keep;			/* kept after the job (--keep-weights) */
	/* A refusal: NODE's weight asked (WANT, if ASKED) and in the table
	 * now (NOW); "0:1,1:1": every weight asked (WANTED) and the table's
	 * now for those nodes (HAVE). */
	bool asked;
	unsigned want, now;
	char wanted[256], have[256];
};

/* --dry-run of --set-global-weights=WL, or (NULL) of --reset-global-weights:
 * "would set global interleave weights: 0:3 1:1"; 0, or -1 with E's fault
 * NC2_LEASES_UNLISTED (lib/print/planprint.c). */
int nc2_admin_print_set(FILE *out, const struct weight_list *wl, struct nc2_error *e);

/* Whether the program's libnuma drops task-local weights (lib/job/libnumacheck.c). */
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
	/* UNCHECKED: why, LIBNUMA_SLOW, LIBNUMA_TOO_BIG or LIBNUMA_UNREAD (the
	 * plan's, valid while it is; NULL when out of memory); NULL otherwise. */
	struct nc2_error *error;
	char prog[PATH_MAX];	/* the ELF program the exec ends up running */
	char lib[PATH_MAX];	/* the libnuma it loads (DROPS, KEEPS, UNREADABLE),
				 * or its loader (UNCHECKED, NOT_ASKED) */
};

/* A static program's code and constants are a few MiB (glibc's static
 * programs: ~1 MiB; a large statically linked HPC code: tens of MiB); one
 * whose headers name more is not read through (UNCHECKED, -EFBIG). */
#define LIBNUMA_SCAN_MAX (256UL << 20)

/* How long the loader has to answer, in milliseconds. */
unsigned nc2_libnuma_check_limit_ms(void);

/* The job, watched to its end (lib/job/supervise.c). */
/* The job's own process with its last thread in its exit-stop (traced), or
 * as it was at the last sample (sampled). */
struct job_exit {
	pid_t pid;		/* the process (thread group) */
	pid_t tid;		/* that thread: /proc/TID/numa_maps is still there */
	int exit_status;	/* that thread's, in wait(2)'s format (traced only) */
	bool main;		/* always: the process numactl2 became */
	bool sample;		/* a sample taken while it runs, not its exit-stop */
};

/* The longest time between two samples of a job's processes while it runs
 * (the first is taken at once, then 10 ms later, twice as far apart each
 * time up to this). */
#define SUPERVISE_SAMPLE_MS 200

enum job_watch {
	WATCH_END,	/* only its end (pidfd): --restore-weights */
	WATCH_TRACE,	/* its threads' exit-stops (ptrace): --report */
	WATCH_SAMPLE,	/* samples while it runs: --report for a job ptrace would break */
};

/* The job and its watcher (lib/job/job.c): made with the command and how
 * it is watched, its hooks set, read through the accessors once
 * nc2_supervise_watch() returned. */
struct job;

/* NULL when out of memory; nc2_job_free() lets it go. */
struct job *nc2_job_new(char **command, enum job_watch how);
void nc2_job_free(struct job *job);
/* WATCH_TRACE: AT_EXIT is called at the exit-stop of the last thread of
 * the job's process, its address space still there; WATCH_SAMPLE: at each
 * sample (x->sample). WATCH_TRACE and WATCH_SAMPLE: AT_SAMPLE_STARTED is
 * called with the job's PID at each sample (at most SUPERVISE_SAMPLE_MS
 * apart) and, traced, at the exit-stop before AT_EXIT: what the job
 * started is read there, never traced (NULL: not read). Both with ARG. */
void nc2_job_set_hooks(struct job *job, void (*at_exit)(const struct job_exit *x, void *arg),
		       void (*at_sample_started)(pid_t job, void *arg), void *arg);
enum job_watch nc2_job_how(const struct job *job);
/* The job: numactl2's own PID. */
pid_t nc2_job_pid(const struct job *job);
/* Whether *STATUS (wait(2)'s format) holds how the job ended. */
bool nc2_job_status(const struct job *job, int *status);
/* WATCH_TRACE: its children alive at its end. */
unsigned nc2_job_running(const struct job *job);
/* WATCH_SAMPLE: at least one sample was read. */
bool nc2_job_sampled(const struct job *job);

/* In the watcher: waits until the job has ended. Returns 0 once it ran and
 * ended (WATCH_TRACE: held in its last exit-stop until supervise_release()),
 * -1 when the exec failed. */
int nc2_supervise_watch(struct job *job);

/* LeakSanitizer in the job (lib/job/leaksan.c). */
/* Does the program an exec of command would run with the environment envp
 * (through PATH; a script's #! interpreter) carry a sanitizer runtime with
 * LeakSanitizer: __lsan_ or __asan_init among its dynamic symbols (clang
 * links the runtime in), or libasan/liblsan among the libraries it needs
 * (gcc)? Not when ASAN_OPTIONS or LSAN_OPTIONS turns leak detection off. */
bool nc2_leaksan_runs(char **command, char *const envp[]);

/* Whether the job's exec gains privilege (lib/job/privexec.c): the file
 * execvp(cmd) would run with envp is set-user-ID, set-group-ID or has file
 * capabilities, which the kernel does not grant to a traced exec. */
bool nc2_prog_gains_privilege(const char *cmd, char *const envp[]);
/* Does this process run under a tracer (strace, gdb: TracerPid)? Its exec,
 * the job, cannot then be traced by a watcher. */
bool nc2_self_traced(void);

/* How the job's exec would fail (lib/job/progload.c). */
/* How execvp(cmd) would fail with the environment envp, found without
 * running anything: 0 (a file it would run), -ENOENT (none found), -EACCES
 * (found, but a directory or not executable), or another -errno. */
int nc2_prog_exec_error(const char *cmd, char *const envp[]);

/* --report (lib/job/report.c). */
enum report_format { REPORT_NONE, REPORT_TABLE, REPORT_JSON };

/* What a front end asks of a report. */
struct report_opts {
	enum report_format format;
	const char *path;		/* --report-file, or NULL */
	FILE *out;			/* without a path, where it goes (stderr) */
	const struct policy *policy;	/* final but for --weights=measured's weights */
	char **command;
};

/* A report as O asks, into *R (nc2_report_close() frees it), with
 * --report-file opened (before anything changes): with no symlink anywhere
 * on its path, a regular file only, with one link only, of this user's own
 * and not on a filesystem of kernel controls, procfs, sysfs, cgroupfs and
 * the like; a file that is there is not truncated until the report is
 * written. 0, or -1 with E's fault REPORT_SYMLINK, REPORT_NOT_REGULAR,
 * REPORT_LINKS, REPORT_NOT_OWN, REPORT_KERNEL_FS or REPORT_OPEN. */
int nc2_report_open(const struct report_opts *o, struct report **r, struct nc2_error *e);
/* supervise.c's hook (struct job's at_exit): adds the pages of the process
 * x names to r (or says in r why it could not); a sample replaces the one
 * before. */
void nc2_report_add_process(const struct job_exit *x, void *arg);
/* supervise.c's other hook (struct job's at_sample_started): a sample of
 * every process the job started, the last of each kept for the report. */
void nc2_report_sample_started(pid_t job, void *arg);

/* Prints the report of the job that has ended (nc2_supervise_watch()) to r->out
 * (--report-file truncated first); nothing when the job's own process was
 * not read. Failures are kept for nc2_report_failed(). */
void nc2_report_print(struct report *r, const struct job *job);

/* Whether the exit-stop (or a sample) of the job's own process was reached. */
bool nc2_report_seen(const struct report *r);
/* 0, or -1 with E's fault REPORT_UNREAD (a process whose numa_maps could
 * not be read: no report) or REPORT_UNWRITTEN (the report could not be
 * written). */
int nc2_report_failed(const struct report *r, struct nc2_error *e);
/* Closes --report-file and lets the report go; 0, or -1 with E's fault
 * REPORT_WRITE. */
int nc2_report_close(struct report *r, struct nc2_error *e);

/* --pid --migrate: how many pages moved (lib/job/migrate.c). */
struct migrate_result {
	unsigned long moved;	/* pages moved: to their node, or with their huge page */
	unsigned long failed;	/* pages move_pages left where they were */
	unsigned long fail_addr;	/* the first of them */
	int fail_err;		/* its status, -errno */
};

/* --show (lib/print/show.c). */
/* Written to OUT: 0; or -1 with E's fault NC2_NO_NUMA (OUT says so, as
 * numactl does, and exits 1), NC2_CALL (get_mempolicy2 may fail with ENOSYS
 * under a seccomp filter) or NC2_LEASES_UNLISTED. */
int nc2_show_print(FILE *out, struct nc2_error *e);
/* The same as JSON: the policy, its masks and weights, the global table
 * and numactl2d's holders (pid, uid, user, command, weights). */
int nc2_show_print_json(FILE *out, struct nc2_error *e);

/* --hardware (lib/print/hardware.c). */
/* Written to OUT: 0; or -1 with E's fault NC2_NO_NUMA (OUT says so, as
 * numactl does, and exits 1) or NC2_LEASES_UNLISTED (nothing written). */
int nc2_hardware_print(FILE *out, bool cpu_compress, struct nc2_error *e);

/* --pid (lib/request/pidpolicy.c): a running process's policy, read through
 * its pidfd, then set on every thread of it (a policy given) or printed in
 * numactl's lines (--show), and with --migrate its pages moved after. */
struct pid_request {
	pid_t pid;
	const struct policy *policy;	/* NULL: --show */
	bool migrate;			/* --migrate (with a policy) */
	FILE *out;			/* --show: where its lines go */
};

/* 0, or -1 with E's fault the PID_ step that failed (with --migrate,
 * nc2_error_moved() counts the pages moved and not). */
int nc2_pid_apply(const struct pid_request *r, struct nc2_error *e);

/* The request (lib/request/resolve.c, apply.c, jobend.c, places.c). */
/* The longest --wait (the CLI) and --weights-wait (the plugin): a week. */
#define WAIT_MAX_SECS 604800

/* What --weights gave, decided once (nc2_request_set_weights()). */
enum nc2_weights_kind {
	NC2_WEIGHTS_NONE,
	NC2_WEIGHTS_LIST,	/* "0:3,1:1": the request's list */
	NC2_WEIGHTS_AUTO,	/* from the nodes' bandwidths, read now */
	NC2_WEIGHTS_MEASURED,	/* measured before the policy is set */
};

/* A request is filled through the nc2_request_* setters below (fill.c),
 * which give the defaults and check the user's words; the flags after
 * `env` are the CLI's own options, set as they are. */
struct request {
	struct policy *policy;	/* mode, nodes and flags as set; resolve adds the weights */
	const char *weights;	/* --weights as given; NULL: none */
	enum nc2_weights_kind weights_kind;
	struct weight_list list;	/* NC2_WEIGHTS_LIST: the list, read */
	unsigned budget;	/* --weight-budget, or BW_BUDGET_CHOOSE */
	bool nodes_local;	/* "local": nc2_request_set_cpus() finds the nodes */
	unsigned long long measure_size;	/* --weights=measured's size and time */
	unsigned measure_secs;
	/* The CPUs the job will run on, for --weights=auto (-N, -C); NULL:
	 * its affinity now. */
	const struct bitmask *cpunodes;
	const struct bitmask *cpus;
	char **command;		/* the job's command; NULL: none */
	char **env;		/* the environment the command is found and run in */
	bool dry_run;		/* read files only: the program's loader is not run */
	bool no_global;		/* --no-global-weights: the table must already hold them */
	bool global_forced;	/* --global-weights */
	bool to_pid;		/* --pid: the weights go with the policy to that process */
	bool on_range;		/* --shm/--file: a range's policy, no program to ask */
	bool job;		/* a job runs under the weights: its leases stay, and
				 * the table goes back at its end */
	bool keep_weights;	/* --keep-weights: a job's change stays after it */
	struct lease_options lease;	/* --force, --wait[=SECS] */
	/* The range whose policy apply sets (--shm/--file); NULL: the task's. */
	void *range;
	size_t range_len;
	unsigned range_flags;	/* MPOL_MF_STRICT */
};

/* Why the weights go where they go (--dry-run says it). */
enum plan_why {
	WHY_NONE,		/* no weights asked */
	WHY_TASK_LOCAL,		/* the kernel has set_mempolicy2 */
	WHY_PID,		/* --pid: with the policy, to that process */
	WHY_HOME_NODE,		/* --home-node: mbind2 takes the weights too */
	WHY_FORCED,		/* --global-weights */
	WHY_NO_MPOL2,		/* the kernel has no task-local weights */
	WHY_LIBNUMA,		/* the program's libnuma would drop them at its start */
	WHY_ONE_NODE,		/* the global table's, over one node: nowhere (table_change
				 * is false), since no weight moves a page */
};

/* A request resolved (nc2_request_resolve()), then applied: made by
 * nc2_plan_new(), used by the calls below and read through the accessors;
 * its layout is the library's own (lib/request/plan.h). One for each
 * request: a process may hold several. */
struct plan;

/* NULL when out of memory; nc2_plan_free() lets it go. */
struct plan *nc2_plan_new(void);
void nc2_plan_free(struct plan *pl);
/* Where the weights go, and why (--dry-run says it). */
enum plan_why nc2_plan_why(const struct plan *pl);
/* --weights=measured: nc2_request_measure() before apply. */
bool nc2_plan_measured(const struct plan *pl);
/* The global table's weights, held for the job. */
bool nc2_plan_table_change(const struct plan *pl);
/* Apply asked the table's owner (nc2_request_table_said() says what it changed). */
bool nc2_plan_table_taken(const struct plan *pl);
/* The undo (nc2_request_undo(), or a failed apply) put written weights back. */
bool nc2_plan_undone_written(const struct plan *pl);
/* What the libnuma check of the program found; NULL where it did not run. */
const struct libnuma_finding *nc2_plan_libnuma(const struct plan *pl);

/* The table's owner, numactl2d (lib/owner/, docs/service.md): it serves
 * on LISTEN_FD until SIGTERM or SIGINT, keeps its holders in STATE_PATH,
 * and grants what the admin's rules in RULES_PATH allow; what it does goes
 * to LOG. 0, or -1 with E's fault OWNER_SERVE (the errno) when it cannot
 * start or go on. */
#define OWNER_SOCKET_LIVE "/run/numactl2/socket"
#define OWNER_STATE_LIVE "/run/numactl2/state"
#define OWNER_RULES_FILE "/etc/numactl2/weights.conf"
typedef void nc2_owner_log_fn(int priority, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int nc2_owner_serve(int listen_fd, const char *state_path, const char *rules_path, nc2_owner_log_fn *log,
		struct nc2_error *e);

/* What the table's owner (numactl2d) answered a refused ask. */
enum owner_refusal {
	OWNER_SAID_RULE,	/* the admin's rules: text is the rule, node the node */
	OWNER_SAID_HELD,	/* node held by pid/uid (text: its name) at weight held */
	OWNER_SAID_LIMIT,	/* a limit: text names it */
	OWNER_SAID_UNSAVED,	/* its state could not be saved (err): nothing changed */
	OWNER_SAID_UNWRITTEN,	/* node could not be written (err): nothing changed */
	OWNER_SAID_BAD,		/* it did not take the ask: text says why */
	OWNER_SAID_NOTHING,	/* no answer (err: ETIMEDOUT, EBADMSG, ...) */
	OWNER_SAID_AUTO_LOST,	/* the kernel's auto weights would not come back: text */
};

struct owner_refused {
	enum owner_refusal said;
	bool by_service;	/* numactl2d's answer; else root's own owner's */
	unsigned pid, uid, held;
	unsigned want;		/* OWNER_SAID_HELD: the weight this run asked there,
				 * 0: the node free (the kernel's auto weights) */
	unsigned waited;	/* and the seconds --wait waited for it, 0: none */
	/* OWNER_SAID_UNWRITTEN: the writes before the one that failed turned
	 * the kernel's auto weights off, and the undo could not turn them on
	 * again (until reboot: the kernel cannot). */
	bool auto_stays_off, auto_until_reboot;
	char text[200];
};

/* --set-, --reset- and --auto-global-weights by the table's owner: numactl2d
 * where it listens, else root's own (lib/request/ownerask.c). 0 and what
 * changed in SAID, or -1 and E says why. */
enum admin_op { ADMIN_SET, ADMIN_RESET, ADMIN_AUTO };
int nc2_request_admin_owner(enum admin_op op, const struct weight_list *wl,
			const struct lease_options *o, struct table_said *said,
			struct nc2_error *e);
/* The same, for --dry-run: the owner's verdict, nothing changed; 0, or -1
 * and E says why the run would fail. */
int nc2_request_admin_dry(enum admin_op op, const struct weight_list *wl,
		      const struct lease_options *o, struct nc2_error *e);

/* --dry-run's lines of the plan's weights (lib/request/planlines.c, printed by
 * lib/print/planprint.c): the weights, where
 * they go and the leases in their way, the libnuma check it did not run,
 * --weights=auto's bandwidths; 0, or -1 with E's fault NC2_LEASES_UNLISTED. */
int nc2_request_print_weights(FILE *out, const struct request *r, const struct plan *pl,
			  struct nc2_error *e);
/* A run's notice when --weights=auto's row is approximated (HMAT unread: a
 * user who is not root), as a value that msg_auto_notice() words. The words
 * it shares with --dry-run's lines are the library's, given as they are: the
 * printers (lib/bandwidth/autoprint.c) cannot call msg/. */
#define NC2_AUTO_SAID_MAX 512
struct nc2_auto_notice {
	unsigned n;			/* the interleave set's nodes, with the weights set */
	unsigned node[BW_MAX_NODES];
	uint8_t weight[BW_MAX_NODES];
	char hmat[64];			/* why HMAT was not read, as --dry-run says it */
	/* From what the row is approximated, and the worst case the exact
	 * figures allow for the weights: --dry-run's "auto weights:" line. */
	char approximated[NC2_AUTO_SAID_MAX];
};
/* Whether the plan's --weights=auto row is approximated; if so, AN is
 * filled (lib/request/planlines.c). */
bool nc2_plan_auto_notice(const struct plan *pl, struct nc2_auto_notice *an);

/* fill.c: a request's defaults (no policy, no weights, no lease, the
 * measurement's default size and time) over the policy P it fills. */
void nc2_request_init(struct request *r, struct policy *p);
/* The policy's mode (MPOL_*) and the option that asked for it, for messages. */
void nc2_request_set_policy(struct request *r, int mode, const char *option);
/* The policy's nodes: a node list of this machine (ALL: outside the
 * cpuset too), or "local", found by nc2_request_set_cpus(). 0, or -1 and E
 * says why (REQ_NODE_LIST, REQ_NODE_ABSENT). */
int nc2_request_set_nodes(struct request *r, const char *arg, bool all, struct nc2_error *e);
/* A node list of this machine as a new mask in *OUT: 0, or -1 and E. */
int nc2_nodes_parse(const char *arg, bool all, struct bitmask **out, struct nc2_error *e);
/* The words of a node list, without the machine ("local" or the syntax):
 * where the job runs may have other nodes. 0, or -1 and E (REQ_NODE_SYNTAX). */
int nc2_nodes_check_words(const char *arg, struct nc2_error *e);
/* The CPUs the job will run on (-N's nodes, -C's CPUs; NULL: its affinity
 * now); "local" nodes are found from them here. 0, or -1 and E
 * (LOCAL_NO_CPU_NODE, LOCAL_NONE_NEAR, LOCAL_UNREAD). */
int nc2_request_set_cpus(struct request *r, const struct bitmask *cpunodes,
			 const struct bitmask *cpus, struct nc2_error *e);
/* --weights: a list, "auto" or "measured", over an interleave (which
 * becomes weighted). 0, or -1 and E (REQ_WEIGHT_LIST, REQ_NOMEM_LIST,
 * REQ_WEIGHTS_NEED_INTERLEAVE). nc2_request_free() lets the list go. */
int nc2_request_set_weights(struct request *r, const char *arg, struct nc2_error *e);
/* --weight-budget, for auto or measured weights: 0, or -1 and E
 * (REQ_BUDGET_NEEDS_AUTO, REQ_BUDGET_INVALID). */
int nc2_request_set_budget(struct request *r, const char *arg, struct nc2_error *e);
/* --force, --wait[=SECS] (0: no limit): 0, or -1 and E (REQ_FORCE_WITH_WAIT). */
int nc2_request_set_lease(struct request *r, bool force, bool wait, unsigned secs,
			  struct nc2_error *e);
/* The seconds of --wait=SECS (the plugin's --weights-wait SECS), as
 * OPTION names it: 1 to WAIT_MAX_SECS; ARG NULL: no limit (0). 0, or
 * -1 and E (REQ_WAIT_INVALID). */
int nc2_wait_secs(const char *option, const char *arg, unsigned *secs, struct nc2_error *e);
/* --measure-size, --measure-time; 0 keeps the default. */
void nc2_request_set_measure(struct request *r, unsigned long long size, unsigned secs);
void nc2_request_free(struct request *r);
/* Room for a measurement of SIZE on NODES, on each node and under the
 * memory cgroup, before any is touched: a cgroup's limit would kill the
 * job without a word. 0, or -1 and E (REQ_MEASURE_TOO_MANY,
 * REQ_MEASURE_NODE_ROOM, REQ_MEASURE_CGROUP_ROOM). */
int nc2_measure_room(const struct bitmask *nodes, unsigned long long size,
		     struct nc2_error *e);

/* resolve.c: the weights and where they go, the libnuma check, what the
 * global table needs; nothing is changed. 0 or -1 with *e filled. */
int nc2_request_resolve(const struct request *r, struct plan *pl, struct nc2_error *e);
const char *nc2_request_why(enum plan_why why);

/* apply.c: --weights=measured measured now, into the policy; then the
 * global table's change (if any) under the transaction and its lease, and
 * the policy set. 0 or -1 with *e filled; on -1 what was written went back
 * (nc2_plan_undone_written() says whether anything had been). */
int nc2_request_measure(const struct request *r, struct plan *pl, const struct measure_req *how,
		    struct measurement *m, struct nc2_error *e);
int nc2_request_apply(const struct request *r, struct plan *pl, struct nc2_error *e);
/* Its two steps, for a front end that says what the first did before the second. */
int nc2_request_apply_table(const struct request *r, struct plan *pl, struct nc2_error *e);
/* --dry-run: the refusal nc2_request_apply_table() would meet, as the same
 * error (--no-global-weights, a holder in the way, a weight this user may
 * not write, a node beyond the table): the table's owner's verdict, with
 * nothing held or written; 0 when it would go ahead. */
int nc2_request_dry_check(const struct request *r, struct plan *pl, struct nc2_error *e);
int nc2_request_apply_policy(const struct request *r, struct plan *pl, struct nc2_error *e);
/* What the run wrote goes back (a failed exec); returns whether anything had been. */
bool nc2_request_undo(struct plan *pl);
/* What could not go back when nc2_request_undo() (or nc2_request_apply_policy()
 * that failed, nc2_plan_undone_written()) undid the run's change: "" when all
 * did, the table's weights and the kernel's auto switch. */
const char *nc2_request_undo_stays(const struct plan *pl);

/* jobend.c: what happens once the job (or the Slurm step) has ended. */
struct job_end {
	bool restored;			/* --restore-weights: the job's weights given back */
	char put_back[512];		/* and the nodes back as they were: "node0 9->1, ..." */
	char left[512];			/* and those left: "node1 at 3 (held by another job)" */
	bool settled;			/* a Slurm step's end: the ended tasks' too */
	struct settle settle;		/* and how that went */
	/* What the owner said it could not put back when the job's hold
	 * ended (--restore-weights, or a job that never ran); "": nothing. */
	char owner_stays[200];
};

/* PL: this run's plan (NULL in a process that holds none, as slurmstepd's
 * exit); RESTORE: --restore-weights. */
void nc2_request_job_ended(struct plan *pl, bool restore, struct job_end *out);
/* The job never ran or its exec failed: its leases go, what it wrote goes back. */
void nc2_request_job_never_ran(struct plan *pl, struct job_end *out);

/* jobrun.c: the watchers. The table's is started before the table is
 * written (where the plan may need it: a job's change, put back at its
 * end), so that numactl2 killed at any moment after the write leaves it to
 * the watcher; SAID is called in that watcher with what it did. 0, or -1
 * with E's fault TABLE_WATCHER: none started (the next run that changes
 * the table puts it back). nc2_request_apply_table() lets it go when the table
 * was not changed. */
int nc2_request_watch_table(const struct request *r, struct plan *pl,
			void (*said)(const struct settle *s), struct nc2_error *e);
/* --report, --restore-weights: the job's watcher (nc2_supervise_watch()), which
 * takes over from the table's; the directory lock is let go first (the
 * leases stay). 0 in numactl2, which execs next; 1 in the watcher; -1 when
 * none could be started (E's fault JOB_WATCHER says why; nothing is left
 * running). */
int nc2_request_job_start(struct plan *pl, struct job *job, struct nc2_error *e);
/* In the job's watcher, once it has ended and its report is written: the
 * job let go, then what every job's end does; with RESTORE
 * (--restore-weights), the job's end is done before the job is let go, so
 * that the table is back by the time the job's parent sees it end; SAID
 * (the front end's words of OUT) is called before it is let go, too. */
void nc2_request_job_done(struct plan *pl, struct job *job, bool restore, struct job_end *out,
		      void (*said)(struct job_end *out));
/* In numactl2, when the exec failed: the job's watcher ends without acting,
 * and what this run wrote goes back. */
void nc2_request_job_exec_failed(struct plan *pl, struct job *job, struct job_end *out);
/* What the table's change did (nc2_plan_table_taken()), for the front ends' notices. */
void nc2_request_table_said(const struct plan *pl, struct table_said *s);

/* places.c: what a message names, the places the library reads and writes
 * (each owned by a module the front ends do not call). */
enum nc2_lib_place {
	LIB_TABLE,		/* the global table's directory in sysfs */
	LIB_OWNER,		/* the table's owner's state and lock (root's) */
	LIB_NODEPERF,		/* the nodes' access classes in sysfs */
	LIB_MPOL2_CALLS,	/* where the kernel series lists its calls */
};
const char *nc2_lib_place(enum nc2_lib_place place);

#endif
