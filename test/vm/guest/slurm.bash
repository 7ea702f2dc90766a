# SPDX-License-Identifier: GPL-2.0-or-later
# The guest's one-node Slurm cluster, for slurm.bats (stock 7.2: the global
# table) and slurm-mpol2.bats (the kernel series: task-local weights):
# test/slurm/cluster, as on the host, with /vmtest/slurm/numactl2.so in its
# plugstack.conf, and what a bare guest must have first.

SL=/vmtest/slurm

# What a bare guest lacks and Slurm needs: the loopback up, with one
# address besides 127.0.0.1 (glibc's getaddrinfo with AI_ADDRCONFIG, which
# Slurm uses, counts no loopback address and would find no IPv4 at all), a
# cgroup mount (slurmd wants one even with task/none), a host name that
# resolves.
guest_host_setup() {
	ip link set lo up || return 1
	ip addr add 10.254.0.1/32 dev lo 2>/dev/null || ip addr show dev lo | grep -q 10.254.0.1 || return 1
	hostname localhost
	if ! grep -q ' /sys/fs/cgroup/systemd ' /proc/mounts; then
		mount -t tmpfs -o mode=755 cgroup /sys/fs/cgroup || return 1
		mkdir -p /sys/fs/cgroup/systemd
		mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd || return 1
	fi
}

# cluster_start: the cluster under a new directory of /tmp ($SLURM_DIR),
# clients pointed at it, and $JOBDIR for every job's user to write to.
cluster_start() {
	# nobody's job reads its programs (the initramfs root is mode 0700).
	chmod 755 /
	guest_host_setup || return 1
	SLURM_DIR=$(mktemp -d /tmp/slurm.XXXXXX)
	export SLURM_DIR SLURM_CONF=$SLURM_DIR/slurm.conf
	# TCG is slow: the daemons get longer than on the host to come up.
	if ! CLUSTER_IDLE_SECS=90 "$SL/cluster" start "$SLURM_DIR" "$SL/numactl2.so"; then
		tail -n 30 "$SLURM_DIR"/*.log >&3
		return 1
	fi
	# A place every job's user can write its output to.
	JOBDIR=$SLURM_DIR/jobs
	mkdir -m 1777 "$JOBDIR"
	export JOBDIR
}

cluster_stop() {
	"$SL/cluster" stop "$SLURM_DIR"
}

# Background jobs a test started ($bg_pids), ended.
stop_bg_jobs() {
	local p
	for p in ${bg_pids:-}; do kill "$p" 2>/dev/null || true; done
	for p in ${bg_pids:-}; do wait "$p" 2>/dev/null || true; done
	bg_pids=
}

# Each file that loads this one has the cluster for all its tests, with
# exact 4 KiB splits; each test ends its background jobs.
setup_file() {
	thp never
	cluster_start
}

teardown_file() {
	cluster_stop
	reset_weights
}

teardown() {
	stop_bg_jobs
	reset_weights
}

# Every client call is bounded: a test never hangs the guest.
sr() { timeout -k 5 120 srun "$@" </dev/null; }

# The jobs slurmctld knows (finished ones stay for MinJobAge, 300 s).
job_count() {
	scontrol -o show jobs 2>/dev/null | grep -c '^JobId=' || true
}

# wait_job ID: until job ID has ended (at most 120 s); prints its state.
wait_job() {
	local i state
	for ((i = 0; i < 600; i++)); do
		state=$(scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*')
		case ${state#JobState=} in
		PENDING | RUNNING | CONFIGURING | COMPLETING | '') sleep 0.2 ;;
		*) echo "${state#JobState=}"; return 0 ;;
		esac
	done
	echo "job $1 still ${state:-unknown} after 120 s" >&2
	return 1
}

# wait_file FILE: until FILE exists (at most 60 s).
wait_file() {
	local i
	for ((i = 0; i < 300; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.2
	done
	echo "no $1 after 60 s" >&2
	return 1
}
