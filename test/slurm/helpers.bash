# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by test/slurm/*.bats: the cluster test/slurm/run started
# (SLURM_CONF, SLURM_TEST_DIR), the release plugin (SLURM_PLUGIN) and its
# test build (SLURM_TEST_PLUGIN), which reads a copy of the weight table.
load ../helpers

# Every Slurm client call is bounded: a test never hangs the part.
sr() { timeout -k 5 60 srun "$@" </dev/null; }

# Which plugin the next steps load (srun and slurmstepd read plugstack.conf
# at each step).
use_plugin() {
	echo "required $1" >"$SLURM_TEST_DIR/plugstack.conf"
}

# The real table's weight of node 0: what "weights that already hold" ask
# for, so that the release plugin never writes it (compare-before-write).
real_w0() {
	cat "$REAL_WI_DIR/node0"
}

# No job of ours left in the queue.
no_jobs() {
	[ -z "$(squeue -h -o %i 2>/dev/null)" ]
}

# The test build of the plugin on a copy of the table whose node 0 has
# weight $1 ($WI), with its own lease records, exported for the jobs (the
# test build refuses to run without the copy).
test_table() {
	use_plugin "$SLURM_TEST_PLUGIN"
	WI=$(fake_wi_dir 0)
	echo "$1" >"$WI/node0"
	export NUMACTL2_SYSFS_WI=$WI
}

# A job (in the background) that leases node 0 at the copy's weight while
# it runs COMMAND...; returns once numactl2 --show lists its lease.
hold_lease() {
	local w end
	w=$(cat "$WI/node0")
	timeout -k 5 60 srun --weighted-interleave=0 --weights=0:"$w" "$@" </dev/null 3>&- &
	end=$((SECONDS + 20))
	until [[ $("$NUMACTL2" --show) == *"interleave weight holder: pid "[0-9]*" weights 0:$w"* ]]; do
		[ "$SECONDS" -lt "$end" ] || { "$NUMACTL2" --show; return 1; }
		sleep 0.2
	done
}
