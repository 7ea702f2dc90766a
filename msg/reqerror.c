// SPDX-License-Identifier: GPL-2.0-or-later
/* Every fault a public call of the library can report (struct nc2_error),
 * worded once for the CLI and the Slurm plugin: one switch (msg_error()),
 * a helper for each family of faults that needs more than a line. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg/messages.h"
#include "msg/reqerror.h"

/* FMT and, as err() would, ": " and E's strerror. */
static void __attribute__((format(printf, 4, 5)))
with_errno(char *buf, size_t len, const struct nc2_error *e, const char *fmt, ...)
{
	va_list ap;
	size_t used;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	used = strlen(buf);
	snprintf(buf + used, len - used, ": %s", strerror(nc2_error_errno(e)));
}

/* A user who is not root, with no numactl2d to ask, whose weights differ
 * from the table's: one line that says what it can do instead. */
static void needs_root(char *buf, size_t len, const struct table_said *t, unsigned node)
{
	if (!t->keep) {
		snprintf(buf, len, "changing global interleave weights needs root, or numactl2d "
			 "(node %u is %u, not %u)", node, t->now, t->want);
		return;
	}
	snprintf(buf, len, "node %u has global weight %u, not %u, and only root can change it, "
		 "or numactl2d where an admin runs it (numactl2d(8)): ask for the weights in "
		 "effect (--weights=%s), check with --dry-run, or have an admin run "
		 "'numactl2 --set-global-weights=%s'", node, t->now, t->want, t->have, t->wanted);
}

/* Why a user who is not root, with no numactl2d, cannot have the weights asked. */
static void global_refused(char *buf, size_t len, const struct nc2_error *e)
{
	if (nc2_error_table(e)->asked)
		needs_root(buf, len, nc2_error_table(e), nc2_error_node(e));
	else
		snprintf(buf, len, "changing global interleave weights needs root, or numactl2d "
			 "where an admin runs it (numactl2d(8))");
}

/* A holder in the way: who, and what this run needed there. */
static void owner_held(char *buf, size_t len, const struct nc2_error *e, const char *remedy)
{
	const struct owner_refused *o = nc2_error_owner(e);
	char gave_up[64] = "", need[64];

	if (o->waited)
		snprintf(gave_up, sizeof(gave_up), "gave up after waiting %u s: ", o->waited);
	if (o->want)
		snprintf(need, sizeof(need), "this needs weight %u there", o->want);
	else
		snprintf(need, sizeof(need), "the kernel's auto weights need it free");
	snprintf(buf, len, "%snode %u is held at weight %u by PID %u (%s, uid %u)%s; %s%s%s",
		 gave_up, nc2_error_node(e), o->held, o->pid, o->text, o->uid,
		 o->by_service ? " through numactl2d" : "", need, o->waited ? "" : ": ",
		 o->waited ? "" : remedy);
}

/* A write the table refused, every write undone but, where the undo could
 * not turn them on again, the kernel's auto weights. WHO: "numactl2d " or "". */
static void owner_unwritten(char *buf, size_t len, const struct nc2_error *e,
			    const char *who)
{
	const struct owner_refused *o = nc2_error_owner(e);
	char stays[160] = "none changed";

	if (o->auto_until_reboot)
		snprintf(stays, sizeof(stays), "none changed, but the kernel's auto weights stay "
			 "off until reboot: %s", MSG_AUTO_GONE_WHY);
	else if (o->auto_stays_off)
		snprintf(stays, sizeof(stays), "none changed, but the kernel's auto weights stay "
			 "off");
	if (nc2_error_errno(e) == ENODEV)
		snprintf(buf, len, "the platform reports no node bandwidth; the kernel cannot "
			 "set weights from it");
	else if (o->text[0])
		with_errno(buf, len, e, "%s%s", who, o->text);
	else
		with_errno(buf, len, e, "%scannot change global interleave weight of node %u (%s)",
			   who, nc2_error_node(e), stays);
}

/* What the table's owner answered, in one line: numactl2d ("numactl2d
 * refused: ..."), or root's own, numactl2 itself where no service runs,
 * which needs no name. REMEDY: the front end's option to wait for a holder. */
static void owner_error(char *buf, size_t len, const struct nc2_error *e, const char *remedy)
{
	const struct owner_refused *o = nc2_error_owner(e);
	const char *who = o->by_service ? "numactl2d " : "";

	switch (o->said) {
	case OWNER_SAID_RULE:
		snprintf(buf, len, "%srefused to change node %u: %s", who, nc2_error_node(e),
			 o->text);
		break;
	case OWNER_SAID_HELD:
		owner_held(buf, len, e, remedy);
		break;
	case OWNER_SAID_LIMIT:
		snprintf(buf, len, "%srefused: %s", who, o->text);
		break;
	case OWNER_SAID_UNSAVED:
		snprintf(buf, len, "%scannot save %s (%s): nothing changed", who,
			 o->by_service ? "its state" : nc2_lib_place(LIB_OWNER),
			 strerror(nc2_error_errno(e)));
		break;
	case OWNER_SAID_UNWRITTEN:
		owner_unwritten(buf, len, e, who);
		break;
	case OWNER_SAID_BAD:
		if (nc2_error_errno(e) == ENOENT)
			snprintf(buf, len, "node %u has no global interleave weight in %s",
				 nc2_error_node(e), nc2_lib_place(LIB_TABLE));
		else
			snprintf(buf, len, "%sdid not take the request: %s", who, o->text);
		break;
	case OWNER_SAID_AUTO_LOST:
		snprintf(buf, len, "%srefused: %s; as root, --keep-weights makes the change, and "
			 "keeps it after the job", who, o->text);
		break;
	case OWNER_SAID_NOTHING:
		if (o->by_service)
			with_errno(buf, len, e, "no answer from numactl2d");
		else
			snprintf(buf, len, "cannot take the global weight table's state in %s: %s; "
				 "nothing changed", nc2_lib_place(LIB_OWNER), strerror(nc2_error_errno(e)));
	}
}

/* The weights' bandwidths that --weights=auto could not read. */
static void auto_unread(char *buf, size_t len, const struct nc2_error *e)
{
	if (nc2_error_fault(e) == REQ_AUTO_TOO_MANY)
		snprintf(buf, len, "--weights=auto takes at most %d nodes", BW_MAX_NODES);
	else if (nc2_error_fault(e) == REQ_AUTO_NO_CPU_NODE)
		snprintf(buf, len, "--weights=auto: the job's CPUs are on no node that %s lists",
			 nc2_lib_place(LIB_NODEPERF));
	else if (nc2_error_fault(e) == REQ_AUTO_NO_BANDWIDTH)
		snprintf(buf, len, "node %u reports no bandwidth (nothing in %s/node%u/access1 or "
			 "access0): measure it with --measure, or use --weights=measured",
			 nc2_error_node(e), nc2_lib_place(LIB_NODEPERF), nc2_error_node(e));
	else
		with_errno(buf, len, e, "--weights=auto");
}

/* The program's libnuma drops task-local weights, and --no-global-weights
 * forbids the global ones. */
static void libnuma_refused(char *buf, size_t len, const struct nc2_error *e)
{
	size_t used;

	msg_libnuma_drops(buf, len, nc2_error_libnuma(e));
	used = strlen(buf);
	snprintf(buf + used, len - used, ", and --no-global-weights forbids changing "
		 "the global ones");
}

/* -w local: no node near the job's CPUs. */
static void local_nodes(char *buf, size_t len, const struct nc2_error *e)
{
	if (nc2_error_fault(e) == LOCAL_NONE_NEAR)
		snprintf(buf, len, "node list 'local': no node with memory is nearest to the job's "
			 "CPUs (%s/nodeN/access1/initiators, or the distances)", nc2_lib_place(LIB_NODEPERF));
	else if (nc2_error_fault(e) == LOCAL_NO_CPU_NODE)
		snprintf(buf, len, "node list 'local': the job's CPUs are on no node that %s lists",
			 nc2_lib_place(LIB_NODEPERF));
	else
		with_errno(buf, len, e, "node list 'local'");
}

/* --pid=PID: a refusal common to reading and setting its policy. */
static void pid_refused(char *buf, size_t len, const struct nc2_error *e)
{
	int pid = (int)nc2_error_value(e), err = nc2_error_errno(e);
	bool show = nc2_error_mode(e) == POLICY_NONE;
	const char *what = show && nc2_error_fault(e) != PID_SET ? "read" : "change";

	if (err == ENOSYS)
		snprintf(buf, len, "--pid needs a kernel with set_mempolicy2 and get_mempolicy2, "
			 "which no released Linux has (numactl2(8), KERNELS): this kernel does not "
			 "list them in %s; nothing changed", nc2_lib_place(LIB_MPOL2_CALLS));
	else if (err == EINVAL || err == E2BIG)
		snprintf(buf, len, "--pid=%d: get_mempolicy2 refused the pidfd: this kernel's calls "
			 "cannot act on another process (no MPOL_F_PIDFD), or it is a kernel thread; "
			 "nothing changed", pid);
	else if (err == ESRCH)
		snprintf(buf, len, "--pid=%d: the process has exited; nothing changed", pid);
	else if (err == EPERM)
		snprintf(buf, len, "--pid=%d: not permitted to %s the policy of that process "
			 "(another user's: needs %s); nothing changed", pid, what,
			 show ? "CAP_SYS_PTRACE" : "CAP_SYS_PTRACE and CAP_SYS_NICE");
	else
		with_errno(buf, len, e, "--pid=%d: cannot %s the policy", pid, what);
}

/* The threads of the process after its main one (already set): an error
 * here leaves some threads changed, and says which. */
static void pid_threads(char *buf, size_t len, const struct nc2_error *e)
{
	int pid = (int)nc2_error_value(e);

	if (nc2_error_thread(e))
		with_errno(buf, len, e, "--pid=%d: cannot change the policy of its thread %d (the "
			   "main thread and those set before it have the new one)", pid,
			   (int)nc2_error_thread(e));
	else if (nc2_error_errno(e) == EAGAIN)
		snprintf(buf, len, "--pid=%d: the process kept starting threads (%d passes over "
			 "/proc/%d/task); its newest threads may keep the old policy", pid,
			 THREADS_MAX_PASSES, pid);
	else
		pid_refused(buf, len, e);
}

/* --migrate's ranges or plan could not be read: nothing changed. */
static void pid_not_read(char *buf, size_t len, const struct nc2_error *e)
{
	int pid = (int)nc2_error_value(e), err = nc2_error_errno(e);

	if (nc2_error_fault(e) == PID_MIGRATE_PLAN && err == ENOMEM)
		with_errno(buf, len, e, "--pid=%d: --migrate", pid);
	else if (nc2_error_fault(e) == PID_MIGRATE_PLAN)
		snprintf(buf, len, "--pid=%d: --migrate cannot read the global weight of node %u: "
			 "%s; nothing changed", pid, nc2_error_node(e), strerror(err));
	else if (err == ENOENT || err == ESRCH)
		snprintf(buf, len, "--pid=%d: the process has exited; nothing changed", pid);
	else
		snprintf(buf, len, "--pid=%d: cannot read /proc/%d/maps and numa_maps: %s; "
			 "nothing changed", pid, pid, strerror(err));
}

/* The pages could not all be moved: the policy is set. */
static void pid_not_moved(char *buf, size_t len, const struct nc2_error *e)
{
	const struct migrate_result *r = nc2_error_moved(e);
	int pid = (int)nc2_error_value(e), err = nc2_error_errno(e);

	if (err == EIO)
		snprintf(buf, len, "--pid=%d: policy set; %lu pages could not be moved (the first "
			 "at 0x%lx: %s); %lu pages moved", pid, r->failed, r->fail_addr,
			 strerror(-r->fail_err), r->moved);
	else if (err == ESRCH)
		snprintf(buf, len, "--pid=%d: policy set; the process exited while its pages were "
			 "moved; %lu pages moved", pid, r->moved);
	else if (err == EPERM)
		snprintf(buf, len, "--pid=%d: policy set; not permitted to move the pages of that "
			 "process (move_pages needs ptrace read access to it); %lu pages moved", pid,
			 r->moved);
	else
		snprintf(buf, len, "--pid=%d: policy set; cannot move its pages: %s; %lu pages moved",
			 pid, strerror(err), r->moved);
}

/* --report-file refused before anything changed. */
static void report_refused(char *buf, size_t len, const struct nc2_error *e, const char *why)
{
	snprintf(buf, len, "cannot open the report file '%s': %s", nc2_error_name(e), why);
}

/* The program the libnuma check looked at; the command where no finding
 * could be kept (out of memory). */
static const char *libnuma_prog(const struct nc2_error *e)
{
	const struct libnuma_finding *f = nc2_error_libnuma(e);

	return f ? f->prog : nc2_error_name(e);
}

/* A check that could not finish (LIBNUMA_UNCHECKED): why, in the finding's words. */
static void libnuma_unchecked(char *buf, size_t len, const struct nc2_error *e)
{
	const struct libnuma_finding *f = nc2_error_libnuma(e);
	char why[PATH_MAX + 128];

	if (nc2_error_fault(e) == LIBNUMA_SLOW)
		snprintf(why, sizeof(why), "its loader %s did not list its libraries within %g s",
			 f->lib, nc2_libnuma_check_limit_ms() / 1000.0);
	else if (nc2_error_fault(e) == LIBNUMA_TOO_BIG && f->lib[0])
		snprintf(why, sizeof(why), "its loader %s wrote more than a library list", f->lib);
	else if (nc2_error_fault(e) == LIBNUMA_TOO_BIG)
		snprintf(why, sizeof(why), "a static program with over %lu MiB of code and "
			 "constants", LIBNUMA_SCAN_MAX >> 20);
	else
		snprintf(why, sizeof(why), "%s", strerror(nc2_error_errno(e)));
	snprintf(buf, len, "which libnuma %s starts with is not known (%s): its start-up may "
		 "reset the memory policy without its task-local weights", f->prog, why);
}

void msg_error(char *buf, size_t len, const struct nc2_error *e, const char *hint)
{
	const char *name = nc2_error_name(e);

	switch (nc2_error_fault(e)) {
	case NC2_OK:
		snprintf(buf, len, "no error");
		break;
	case REQ_NOMEM_WEIGHTS:
		with_errno(buf, len, e, "cannot keep the weights");
		break;
	case REQ_NOMEM_LIST:
		with_errno(buf, len, e, "cannot read the weight list");
		break;
	case REQ_WEIGHT_LIST:
		nc2_parse_strerror(nc2_error_parse(e), "weight list", buf, len);
		break;
	case REQ_WEIGHT_NOT_IN_SET:
		snprintf(buf, len, "node %u in --weights is not in the interleave set",
			 nc2_error_node(e));
		break;
	case REQ_AUTO_UNREAD: case REQ_AUTO_TOO_MANY: case REQ_AUTO_NO_CPU_NODE:
	case REQ_AUTO_NO_BANDWIDTH:
		auto_unread(buf, len, e);
		break;
	case REQ_AUTO_BUDGET: case REQ_BUDGET_BELOW_NODES:
		snprintf(buf, len, "weight budget %u is below the %u nodes of the interleave set "
			 "(each weight is at least 1)", nc2_error_value(e), nc2_error_count(e));
		break;
	case REQ_MEASURE:
		with_errno(buf, len, e, "cannot measure the bandwidth");
		break;
	case REQ_LIBNUMA_UNREAD:
		with_errno(buf, len, e, "cannot tell which libnuma '%s' loads", libnuma_prog(e));
		break;
	case REQ_LIBNUMA_REFUSED:
		libnuma_refused(buf, len, e);
		break;
	case REQ_NO_GLOBAL_WRITE:
		snprintf(buf, len, "this kernel has no task-local weights (set_mempolicy2), and "
			 "--no-global-weights forbids changing the global ones");
		break;
	case REQ_NO_WEIGHTED_INTERLEAVE:
		snprintf(buf, len, "weighted interleave needs Linux 6.9 or later");
		break;
	case REQ_NO_GLOBAL_TABLE:
		snprintf(buf, len, "this kernel has no global interleave weights (needs Linux 6.9 "
			 "or later)");
		break;
	case REQ_NO_AUTO_WEIGHTS:
		snprintf(buf, len, "this kernel has no auto interleave weights (needs Linux 6.16 "
			 "or later)");
		break;
	case REQ_GLOBAL_REFUSED:
		global_refused(buf, len, e);
		break;
	case REQ_NO_GLOBAL_WEIGHT:
		snprintf(buf, len, "node %u has no global interleave weight in %s", nc2_error_node(e),
			 nc2_lib_place(LIB_TABLE));
		break;
	case REQ_PREFERRED_MANY:
		snprintf(buf, len, "--preferred-many needs Linux 5.15 or later");
		break;
	case REQ_POLICY:
		with_errno(buf, len, e, "cannot set %s policy", nc2_policy_name(nc2_error_mode(e)).s);
		break;
	case REQ_OWNER:
		owner_error(buf, len, e, hint);
		break;
	case REQ_NODE_LIST:
		msg_node_refused(buf, len, name, nc2_error_libnuma_said(e));
		break;
	case REQ_NODE_ABSENT:
		msg_node_absent(buf, len, name, nc2_error_parse(e)->item, numa_nodes_ptr);
		break;
	case REQ_NODE_SYNTAX:
		msg_node_list(buf, len, name, "");
		break;
	case REQ_WEIGHTS_NEED_INTERLEAVE:
		snprintf(buf, len, "--weights needs --weighted-interleave or --interleave");
		break;
	case REQ_BUDGET_NEEDS_AUTO:
		snprintf(buf, len, "--weight-budget needs --weights=auto or --weights=measured");
		break;
	case REQ_BUDGET_INVALID:
		snprintf(buf, len, "invalid weight budget '%s' (1-%d)", name, BW_BUDGET_MAX);
		break;
	case REQ_FORCE_WITH_WAIT:
		snprintf(buf, len, "options --force and --wait cannot be combined");
		break;
	case REQ_WAIT_INVALID:
		snprintf(buf, len, "invalid %s: '%s' (1-%d seconds)", nc2_error_option(e), name,
			 WAIT_MAX_SECS);
		break;
	case REQ_MEASURE_TOO_MANY:
		snprintf(buf, len, "--measure measures at most %d nodes", BW_MAX_NODES);
		break;
	case REQ_MEASURE_NODE_ROOM:
		snprintf(buf, len, "--measure-size: node %u has less than %u MiB free",
			 nc2_error_node(e), nc2_error_value(e));
		break;
	case REQ_MEASURE_CGROUP_ROOM:
		snprintf(buf, len, "--measure-size: the memory cgroup leaves %u MiB, less than "
			 "%u MiB", nc2_error_count(e), nc2_error_value(e));
		break;
	case LOCAL_NO_CPU_NODE: case LOCAL_NONE_NEAR: case LOCAL_UNREAD:
		local_nodes(buf, len, e);
		break;
	case SHM_NO_LENGTH:
		snprintf(buf, len, "policy region length not specified before %s", name);
		break;
	case SHM_UNALIGNED:
		snprintf(buf, len, "policy region not page aligned");
		break;
	case SHM_SEGMENT_LENGTH:
		snprintf(buf, len, "need a --length to create a sysv shared memory segment");
		break;
	case SHM_FILE_LENGTH:
		snprintf(buf, len, "need a --length to create a shared file");
		break;
	case SHM_KEYFILE_CREATE:
		with_errno(buf, len, e, "cannot create key file for shm %s", name);
		break;
	case SHM_KEY:
		with_errno(buf, len, e, "cannot get key for shm key file %s", name);
		break;
	case SHM_SEGMENT_GET:
		with_errno(buf, len, e, "cannot get shared memory segment %s", name);
		break;
	case SHM_SEGMENT_STAT:
		with_errno(buf, len, e, "shmctl IPC_STAT");
		break;
	case SHM_SEGMENT_ATTACH:
		with_errno(buf, len, e, "shmat");
		break;
	case SHM_FILE_CREATE:
		with_errno(buf, len, e, "cannot create file %s", name);
		break;
	case SHM_FILE_STAT:
		with_errno(buf, len, e, "cannot stat %s", name);
		break;
	case SHM_FILE_EXTEND:
		with_errno(buf, len, e, "cannot extend %s", name);
		break;
	case SHM_FILE_MAP:
		with_errno(buf, len, e, "cannot map %s", name);
		break;
	case SHM_GET_POLICY:
		with_errno(buf, len, e, "get_mempolicy on shm");
		break;
	case PID_OPEN:
		if (nc2_error_errno(e) == ESRCH)
			snprintf(buf, len, "--pid=%d: no such process", (int)nc2_error_value(e));
		else
			pid_refused(buf, len, e);
		break;
	case PID_READ: case PID_SET:
		pid_refused(buf, len, e);
		break;
	case PID_THREADS:
		pid_threads(buf, len, e);
		break;
	case PID_MIGRATE_PLAN: case PID_MIGRATE_RANGES:
		pid_not_read(buf, len, e);
		break;
	case PID_MOVE:
		pid_not_moved(buf, len, e);
		break;
	case PID_PRINT: case NC2_LEASES_UNLISTED:
		snprintf(buf, len, "cannot list the global weights' holders: out of memory");
		break;
	case REPORT_SYMLINK:
		report_refused(buf, len, e, "a symbolic link is on its path");
		break;
	case REPORT_KERNEL_FS:
		report_refused(buf, len, e, "it is on a filesystem of kernel controls (procfs, "
			       "sysfs, cgroupfs...), not of files");
		break;
	case REPORT_NOT_REGULAR:
		report_refused(buf, len, e, "not a regular file");
		break;
	case REPORT_LINKS:
		report_refused(buf, len, e, "it has more than one link");
		break;
	case REPORT_NOT_OWN:
		report_refused(buf, len, e, "it is another user's");
		break;
	case REPORT_OPEN:
		if (name)
			with_errno(buf, len, e, "cannot open the report file '%s'", name);
		else
			with_errno(buf, len, e, "cannot start the report");
		break;
	case REPORT_WRITE:
		with_errno(buf, len, e, "cannot write the report to %s", name);
		break;
	case REPORT_UNREAD:
		with_errno(buf, len, e, "no report: cannot read /proc/%d/numa_maps",
			   (int)nc2_error_value(e));
		break;
	case REPORT_UNWRITTEN:
		with_errno(buf, len, e, "cannot write the report%s%s", name ? " to " : "",
			   name ? name : "");
		break;
	case NC2_NO_NUMA:
		snprintf(buf, len, "No NUMA available on this system");
		break;
	case NC2_CALL:
		with_errno(buf, len, e, "%s", nc2_error_call(e));
		break;
	case JOB_WATCHER:
		with_errno(buf, len, e, "cannot start a watcher for '%s' (%s)", name,
			   nc2_error_call(e));
		break;
	case TABLE_WATCHER:
		with_errno(buf, len, e, "cannot start the process that puts the global interleave "
			   "weights back when the job ends; the next numactl2 run that changes them "
			   "will");
		break;
	case OWNER_SERVE:
		with_errno(buf, len, e, "cannot serve");
		break;
	case SETTLE_OWNER:
		with_errno(buf, len, e, "cannot put the global interleave weights back after the "
			   "job (%s)", nc2_lib_place(LIB_OWNER));
		break;
	case LIBNUMA_SLOW: case LIBNUMA_TOO_BIG: case LIBNUMA_UNREAD:
		libnuma_unchecked(buf, len, e);
		break;
	}
}

/* What the table's owner could not put back at a job's end (its notice
 * promised the rest): false when there is nothing to say. */
bool msg_settle(char *buf, size_t len, const struct settle *s)
{
	if (s->state == SETTLE_FAILED && s->error)
		msg_error(buf, len, s->error, NULL);
	else if (s->state == SETTLE_FAILED)
		snprintf(buf, len, "cannot put the global interleave weights back after the job "
			 "(%s): %s", nc2_lib_place(LIB_OWNER), strerror(ENOMEM));
	else if (s->state == SETTLE_DONE && s->stays[0])
		snprintf(buf, len, "could not put everything back after the job: %s", s->stays);
	else
		return false;
	return true;
}

/* Which library a job's program starts with, and why it drops task-local
 * weights (lib/job/libnumacheck.c's verdict: DROPS, BUILT_IN, UNREADABLE
 * or UNCHECKED). */
void msg_libnuma_drops(char *buf, size_t len, const struct libnuma_finding *f)
{
	if (f->verdict == LIBNUMA_UNCHECKED && f->error)
		msg_error(buf, len, f->error, NULL);
	else if (f->verdict == LIBNUMA_UNCHECKED)
		snprintf(buf, len, "which libnuma %s starts with is not known (%s): its start-up "
			 "may reset the memory policy without its task-local weights", f->prog,
			 strerror(ENOMEM));
	else if (f->verdict == LIBNUMA_DROPS)
		snprintf(buf, len, "%s loads %s (libnuma 2.0.15-2.0.17), whose start-up resets "
			 "the memory policy without its task-local weights", f->prog, f->lib);
	else if (f->verdict == LIBNUMA_BUILT_IN)
		snprintf(buf, len, "%s is a static program with libnuma built in, whose version "
			 "cannot be read: its start-up may reset the memory policy without its "
			 "task-local weights", f->prog);
	else
		snprintf(buf, len, "%s loads %s, a libnuma whose version cannot be read: its "
			 "start-up may reset the memory policy without its task-local weights",
			 f->prog, f->lib);
}

/* The line a front end says when it takes the global path for that reason. */
void msg_libnuma_global(char *buf, size_t len, const struct libnuma_finding *f)
{
	size_t used;

	msg_libnuma_drops(buf, len, f);
	used = strlen(buf);
	snprintf(buf + used, len - used, "; the weights go to the global table instead, with a lease");
}

/* Why the plan leaves the run's weights where it does, when a user must
 * know it before the run: the program's libnuma sends them to the global
 * table, or one node needs none. False when there is nothing to say. */
bool msg_plan_notice(char *buf, size_t len, const struct plan *pl, const struct policy *p)
{
	if (nc2_plan_why(pl) == WHY_LIBNUMA)
		msg_libnuma_global(buf, len, nc2_plan_libnuma(pl));
	else if (nc2_plan_why(pl) == WHY_ONE_NODE)
		msg_one_node(buf, len, p);
	else
		return false;
	return true;
}
