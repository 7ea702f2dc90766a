#!/usr/bin/env bats
# The SPANK plugin (slurm/) in a real one-node Slurm cluster (test/slurm/run).
# The release plugin only ever asks for weights that the host's table
# already holds; anything else uses the test build on a copy of the table.

load helpers

setup() {
	use_plugin "$SLURM_PLUGIN"
}

teardown() {
	local j
	for j in $(squeue -h -o %i 2>/dev/null); do scancel "$j"; done
	use_plugin "$SLURM_PLUGIN"
}

@test "slurm: srun --help and sbatch --help list the plugin's options" {
	run -0 timeout 20 srun --help
	[[ $output == *"--weighted-interleave=NODES"* ]]
	[[ $output == *"--weights=LIST|auto|measured"* ]]
	[[ $output == *"--weights-wait"* ]]
	run -0 timeout 20 sbatch --help
	[[ $output == *"--weighted-interleave=NODES"* ]]
	[[ $output == *"--weights=LIST|auto|measured"* ]]
}

@test "slurm: a bad --weights fails in srun, before a job exists, with numactl2's message" {
	local before
	before=$(squeue -h -o %i --states=all | wc -l)
	run --separate-stderr sr --weighted-interleave=0 --weights=0:300 true
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: invalid weight '300' for node 0 (1-255)"* ]]
	# numactl2 says the same.
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:300 true
	[[ $stderr == "numactl2: invalid weight '300' for node 0 (1-255)"* ]]
	[ "$(squeue -h -o %i --states=all | wc -l)" = "$before" ]
}

@test "slurm: a bad node list fails in sbatch before a job exists" {
	run --separate-stderr timeout 20 sbatch --weighted-interleave=0-x --wrap=true
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: invalid node list: '0-x'"* ]]
}

@test "slurm: srun with weights that hold: the task's heap is weighted interleave" {
	run -0 --separate-stderr sr --weighted-interleave=0 --weights=0:"$(real_w0)" \
		grep ' heap ' /proc/self/numa_maps
	[[ $output == *" weighted interleave:0 heap "* ]]
}

@test "slurm: without the options, the task's heap has the default policy" {
	run -0 --separate-stderr sr grep ' heap ' /proc/self/numa_maps
	[[ $output == *" default heap "* ]]
}

@test "slurm: --numa-report: each task says its policy on its stderr" {
	run -0 --separate-stderr sr -n 2 --weighted-interleave=0 --weights=0:"$(real_w0)" --numa-report true
	[[ $stderr == *"numactl2: task 0: weighted interleave on nodes 0:$(real_w0) (global weights)"* ]]
	[[ $stderr == *"numactl2: task 1: weighted interleave on nodes 0:$(real_w0) (global weights)"* ]]
}

@test "slurm: sbatch's #SBATCH options reach the batch script and its srun step" {
	cat >"$BATS_TEST_TMPDIR/job.sh" <<JOB
#!/bin/bash
#SBATCH --weighted-interleave=0 --weights=0:$(real_w0)
echo "script: \$(grep ' heap ' /proc/self/numa_maps)"
srun grep ' heap ' /proc/self/numa_maps | sed 's/^/step: /'
JOB
	run -0 timeout 30 sbatch --wait -o "$BATS_TEST_TMPDIR/job.out" "$BATS_TEST_TMPDIR/job.sh"
	run cat "$BATS_TEST_TMPDIR/job.out"
	echo "$output"
	[[ $output == *"script: "*" weighted interleave:0 heap "* ]]
	[[ $output == *"step: "*" weighted interleave:0 heap "* ]]
}

@test "slurm: Slurm's --mem-bind with --weighted-interleave is refused" {
	run --separate-stderr sr --mem-bind=local --weighted-interleave=0 touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: --weighted-interleave cannot be combined with Slurm's --mem-bind: choose one"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "slurm: the test build on a copy of the table: a job's lease shows while it runs" {
	local wi leases
	use_plugin "$SLURM_TEST_PLUGIN"
	wi=$(fake_wi_dir 0)
	leases=$BATS_TEST_TMPDIR/leases
	mkdir -p "$leases"
	echo 9 >"$wi/node0"
	export NUMACTL2_SYSFS_WI=$wi NUMACTL2_LEASE_DIR=$leases
	timeout -k 5 60 srun --weighted-interleave=0 --weights=0:9 sleep 30 </dev/null 3>&- &
	local end=$((SECONDS + 20))
	until [[ $("$NUMACTL2" --show) == *"interleave weight lease: node 0 weight 9 pids "[0-9]* ]]; do
		[ "$SECONDS" -lt "$end" ] || { "$NUMACTL2" --show; false; }
		sleep 0.2
	done
	# Another weight for node 0 while it runs: refused with the lease message.
	run --separate-stderr sr --weighted-interleave=0 --weights=0:"$(real_w0)" touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: node 0 weight 9 is leased by a running job (PIDs "*"); this needs weight $(real_w0) there: --weights-wait to queue"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(cat "$wi/node0")" = 9 ]
}

@test "slurm: the test build writes the copy of the table where it differs" {
	local wi
	use_plugin "$SLURM_TEST_PLUGIN"
	wi=$(fake_wi_dir 0)
	mkdir -p "$BATS_TEST_TMPDIR/leases"
	NUMACTL2_SYSFS_WI=$wi NUMACTL2_LEASE_DIR=$BATS_TEST_TMPDIR/leases \
		run -0 --separate-stderr sr --weighted-interleave=0 --weights=0:7 cat "$wi/node0"
	[ "$output" = 7 ]
}
