#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Slurm plugin where the weights are written for real: the 4-node guest
# on stock 7.2 (the global table), with a one-node cluster of its own
# (test/slurm/cluster, as the host's slurm part: munged, slurmctld and
# slurmd on the loopback) and /vmtest/slurm/numactl2.so in plugstack.conf.
# srun and sbatch jobs split their pages exactly by their weights; auto
# gives 8:4:2:1 from the guest's HMAT; a second job with other weights is
# refused while the first runs, and the first is never mixed; a bad option
# fails before a job exists; a job of a user who is not root.

load common
load slurm

setup() {
	reset_weights
	bg_pids=
}

@test "guest slurm: the node is up, with the plugin in plugstack.conf" {
	run -0 sinfo -h -N -o '%N %T'
	[ "$output" = "n1 idle" ]
	[ "$(cat "$SLURM_DIR/plugstack.conf")" = "required $SL/numactl2.so" ]
}

@test "guest slurm: srun --weighted-interleave=0-3 --weights=0:8,1:4,2:2,3:1: the task's pages split 8:4:2:1" {
	run -0 sr --weighted-interleave=0-3 --weights=0:8,1:4,2:2,3:1 alloc -s 64M
	echo "$output"
	assert_split "0 1 2 3" "8 4 2 1"
	# From a 1:1:1:1 table, the exact split shows the step had 8 4 2 1 in
	# it; the step's end put the table back.
	wait_for_weights "1 1 1 1"
}

@test "guest slurm: without the options, a job's pages follow the default policy" {
	run -0 sr alloc -s 16M
	echo "$output"
	region_line A numa_maps | grep -q '^[0-9a-f]* default '
}

@test "guest slurm: --weights=auto: 8:4:2:1 from the guest's HMAT, exact split" {
	run -0 sr --weighted-interleave=all --weights=auto alloc -s 64M
	echo "$output"
	assert_split "0 1 2 3" "8 4 2 1"
	# From a 1:1:1:1 table, the exact split shows the step had 8 4 2 1 in
	# it; the step's end put the table back.
	wait_for_weights "1 1 1 1"
}

@test "guest slurm: sbatch's #SBATCH options reach the batch script's srun step: exact 3:1 split" {
	local id state
	cat >"$JOBDIR/job.sh" <<-'EOF'
	#!/bin/sh
	#SBATCH --weighted-interleave=0,1
	#SBATCH --weights=0:3,1:1
	srun alloc -s 64M
	EOF
	run -0 sbatch --parsable -o "$JOBDIR/sbatch.out" "$JOBDIR/job.sh"
	id=$output
	[[ $id =~ ^[0-9]+$ ]]
	state=$(wait_job "$id")
	echo "job $id: $state"
	output=$(cat "$JOBDIR/sbatch.out")
	echo "$output"
	[ "$state" = COMPLETED ]
	assert_split "0 1" "3 1"
	# From a 1:1 table, the exact split shows the step had 3 1 in it; the
	# step's end put the table back.
	wait_for_weights "1 1 1 1"
}

@test "guest slurm: a second job with other weights is refused while the first runs; the first is never mixed" {
	local ready=$JOBDIR/ready-conflict
	# Job 1: 9:1 on nodes 0,1; its 100 pages of batch 1, then (SIGUSR1) 100 more.
	sr --weighted-interleave=0,1 --weights=0:9,1:1 retune 100 "$ready" >"$JOBDIR/first.out" 2>&1 3>&- &
	bg_pids+=" $!"
	wait_file "$ready"
	# Job 2 asks 1:9 for the same nodes while job 1 holds its lease.
	run --separate-stderr sr --weighted-interleave=0,1 --weights=0:1,1:9 touch "$JOBDIR/second-ran"
	echo "$stderr"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: node 0 is held at weight 9 by PID "*"; this needs weight 1 there: --weights-wait to queue"* ]]
	[ ! -e "$JOBDIR/second-ran" ]
	[ "$(global_weights | cut -d' ' -f1-2)" = "9 1" ]
	# Job 1's later pages still split 9:1.
	kill -USR1 "$(cat "$ready")"
	wait "${bg_pids# }"
	bg_pids=
	cat "$JOBDIR/first.out"
	grep -qx 'batch1: N0=90 N1=10 N2=0 N3=0' "$JOBDIR/first.out"
	grep -qx 'batch2: N0=90 N1=10 N2=0 N3=0' "$JOBDIR/first.out"
}

@test "guest slurm: two concurrent steps of one job: the second, with other weights, is refused; the first is never mixed" {
	local id state
	cat >"$JOBDIR/steps.sh" <<-'EOF'
	#!/bin/bash
	#SBATCH -n 2
	d=$1
	srun -n1 --overlap --weighted-interleave=0,1 --weights=0:9,1:1 retune 100 "$d/ready-steps" >"$d/step1.out" 2>&1 &
	for ((i = 0; i < 300; i++)); do [ -s "$d/ready-steps" ] && break; sleep 0.2; done
	srun -n1 --overlap --weighted-interleave=0,1 --weights=0:1,1:9 touch "$d/step2-ran" 2>"$d/step2.err"
	echo "step2 exit $?" >"$d/step2.status"
	kill -USR1 "$(cat "$d/ready-steps")"
	wait
	EOF
	run -0 sbatch --parsable -o "$JOBDIR/steps.out" "$JOBDIR/steps.sh" "$JOBDIR"
	id=$output
	[[ $id =~ ^[0-9]+$ ]]
	state=$(wait_job "$id")
	echo "job $id: $state"
	cat "$JOBDIR/steps.out" "$JOBDIR/step2.err" "$JOBDIR/step2.status" "$JOBDIR/step1.out"
	[ "$state" = COMPLETED ]
	grep -Eqx 'step2 exit [1-9][0-9]*' "$JOBDIR/step2.status"
	grep -q "numactl2: node 0 is held at weight 9 by PID .*; this needs weight 1 there: --weights-wait to queue" "$JOBDIR/step2.err"
	[ ! -e "$JOBDIR/step2-ran" ]
	grep -qx 'batch1: N0=90 N1=10 N2=0 N3=0' "$JOBDIR/step1.out"
	grep -qx 'batch2: N0=90 N1=10 N2=0 N3=0' "$JOBDIR/step1.out"
}

@test "guest slurm: --weights-wait: the second job waits for the first's lease, then runs with its own weights" {
	local ready=$JOBDIR/ready-wait
	sr --weighted-interleave=0,1 --weights=0:9,1:1 retune 100 "$ready" >"$JOBDIR/holder.out" 2>&1 3>&- &
	bg_pids+=" $!"
	wait_file "$ready"
	(sleep 3; kill -USR1 "$(cat "$ready")") 3>&- &
	run -0 sr --weighted-interleave=0,1 --weights=0:1,1:3 --weights-wait=100 alloc -s 64M
	echo "$output"
	assert_split "0 1" "1 3"
	grep -qx 'batch2: N0=90 N1=10 N2=0 N3=0' "$JOBDIR/holder.out"
}

@test "guest slurm: a bad --weights fails in srun and in sbatch before any job exists" {
	local before
	before=$(job_count)
	run --separate-stderr sr --weighted-interleave=0,1 --weights=0:1,1:0 touch "$JOBDIR/bad-ran"
	echo "$stderr"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: "* ]]
	[[ $stderr == *"numactl2: invalid weight '0' for node 1 (1-255)"* ]]
	printf '#!/bin/sh\ntouch %s/bad-batch-ran\n' "$JOBDIR" >"$JOBDIR/bad.sh"
	run --separate-stderr sbatch --weighted-interleave=0-x "$JOBDIR/bad.sh"
	echo "$stderr"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: invalid node list '0-x'"* ]]
	[ "$(job_count)" = "$before" ]
	[ ! -e "$JOBDIR/bad-ran" ]
	[ ! -e "$JOBDIR/bad-batch-ran" ]
	[ "$(global_weights)" = "1 1 1 1" ]
}

@test "guest slurm: a job of nobody (uid 65534): weights that hold apply, exact split" {
	numactl2 --set-global-weights=0:3,1:1
	cd "$JOBDIR"
	run -0 asnobody timeout -k 5 120 srun --weighted-interleave=0,1 --weights=0:3,1:1 \
		sh -c 'id -u; exec alloc -s 64M' </dev/null
	echo "$output"
	[ "${lines[0]}" = 65534 ]
	assert_split "0 1" "3 1"
}

@test "guest slurm: a job of nobody that needs other weights is refused; the table is unchanged" {
	numactl2 --set-global-weights=0:3,1:1
	cd "$JOBDIR"
	run --separate-stderr asnobody timeout -k 5 120 srun --weighted-interleave=0,1 --weights=0:5,1:1 \
		touch "$JOBDIR/nobody-ran" </dev/null
	echo "$stderr"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: "*"node 0 "*" 3, not 5"* ]]
	[ ! -e "$JOBDIR/nobody-ran" ]
	[ "$(global_weights | cut -d' ' -f1-2)" = "3 1" ]
}

@test "guest slurm: --numa-report: the task's report says its policy and the exact split" {
	run -0 --separate-stderr sr --weighted-interleave=0,1 --weights=0:1,1:1 --numa-report alloc -s 16M
	echo "$stderr"
	[[ $stderr == *"numactl2: task 0: weighted interleave on nodes 0:1 1:1 (global weights)"* ]]
	assert_split "0 1" "1 1"
}
