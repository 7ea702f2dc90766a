#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
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
	[[ $stderr == *"numactl2: invalid node list '0-x'"* ]]
}

@test "slurm: node lists fail in srun as fully as in the task: reversed ranges, empty items, lone dashes" {
	local before l
	before=$(squeue -h -o %i --states=all | wc -l)
	for l in 1-0 - ,,, 0- 0,,1 0, ,0 '!' 1024; do
		run --separate-stderr sr --weighted-interleave="$l" true
		[ "$status" -ne 0 ] || return 1
		[[ $stderr == *"numactl2: invalid node list '$l'"* ]] || return 1
	done
	[ "$(squeue -h -o %i --states=all | wc -l)" = "$before" ]
}

# A value cut short would be another request (4202 characters once lost a
# node list's last node).
@test "slurm: a value too long to keep is refused in srun and sbatch, not cut short" {
	local nodes weights before
	nodes=$(printf '0,%.0s' $(seq 2100))0
	weights=$(printf '0:1,%.0s' $(seq 2100))0:1
	before=$(squeue -h -o %i --states=all | wc -l)
	run --separate-stderr sr --weighted-interleave="$nodes" true
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: --weighted-interleave value too long: ${#nodes} characters (at most 4095)"* ]]
	run --separate-stderr timeout 20 sbatch --weighted-interleave=0 --weights="$weights" --wrap=true
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: --weights value too long: ${#weights} characters (at most 8191)"* ]]
	[ "$(squeue -h -o %i --states=all | wc -l)" = "$before" ]
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
	[[ $stderr == *"numactl2: task 0: weighted interleave on nodes 0:$(real_w0) (one node: no weights needed)"* ]]
	[[ $stderr == *"numactl2: task 1: weighted interleave on nodes 0:$(real_w0) (one node: no weights needed)"* ]]
}

@test "slurm: one node: the task's weights change nothing in the table and hold nothing, said once; the task runs under weighted interleave" {
	test_table 5
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0
	run -0 --separate-stderr sr --weighted-interleave=0 --weights=0:7 --numa-report \
		sh -c 'cat "$1"; grep " heap " /proc/self/numa_maps' _ "$WI/node0"
	[ "${lines[0]}" = 5 ]
	[[ ${lines[1]} == *" weighted interleave:0 heap "* ]] || return 1
	[[ $stderr == *"numactl2: node 0 alone needs no weights (weighted interleave over one node puts every page there): the global interleave weights are left as they are"* ]] || return 1
	[[ $stderr == *"numactl2: task 0: weighted interleave on nodes 0:7 (one node: no weights needed)"* ]] || return 1
	[ "$(cat "$WI/node0")" = 5 ]
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
	local wi
	use_plugin "$SLURM_TEST_PLUGIN"
	wi=$(fake_wi_dir 0)
	echo 9 >"$wi/node0"
	export NUMACTL2_SYSFS_WI=$wi
	timeout -k 5 60 srun --weighted-interleave=0 --weights=0:9 sleep 30 </dev/null 3>&- &
	local end=$((SECONDS + 20))
	until [[ $("$NUMACTL2" --show) == *"interleave weight holder: pid "[0-9]*" weights 0:9"* ]]; do
		[ "$SECONDS" -lt "$end" ] || { "$NUMACTL2" --show; false; }
		sleep 0.2
	done
	# Another weight for node 0 while it runs: refused with the lease message.
	run --separate-stderr sr --weighted-interleave=0 --weights=0:"$(real_w0)" touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: node 0 is held at weight 9 by PID "*"; this needs weight $(real_w0) there: --weights-wait to queue"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(cat "$wi/node0")" = 9 ]
}

@test "slurm: the test build writes the copy of the table where it differs" {
	local wi
	use_plugin "$SLURM_TEST_PLUGIN"
	wi=$(fake_wi_dir 0)
	NUMACTL2_SYSFS_WI=$wi \
		run -0 --separate-stderr sr --weighted-interleave=0 --weights=0:7 cat "$wi/node0"
	[ "$output" = 7 ]
}

@test "slurm: at the step's end the copy of the table is back as it was (test build)" {
	local wi
	use_plugin "$SLURM_TEST_PLUGIN"
	wi=$(fake_wi_dir 0)
	NUMACTL2_SYSFS_WI=$wi \
		run -0 --separate-stderr sr --weighted-interleave=0 --weights=0:7 cat "$wi/node0"
	[ "$output" = 7 ]
	# slurmstepd puts it back once the step's tasks have ended, not
	# necessarily before srun returns.
	wait_for_value "$wi/node0" 1
	[ -z "$(grep -s '^grant \|^base ' "$BATS_TEST_TMPDIR/numactl2/state")" ]
}

@test "slurm: --weights-wait needs --weights, and its SECS are 1-604800: refused in srun" {
	run --separate-stderr sr --weighted-interleave=0 --weights-wait touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: --weights-wait needs --weights"* ]]
	run --separate-stderr sr --weighted-interleave=0 --weights=0:"$(real_w0)" --weights-wait=0 \
		touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: invalid --weights-wait: '0' (1-604800 seconds)"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "slurm: --weights-wait=SECS waits while another job leases other weights, then runs with its own" {
	local t=$BATS_TEST_TMPDIR
	test_table 9
	# The holder ends (and its lease with it) once "release" exists: 3 s
	# after the waiting step has started.
	hold_lease sh -c 'until [ -e "$1/release" ]; do sleep 0.1; done; echo ended >"$1/holder-ended"' sh "$t"
	(sleep 3; touch "$t/release") 3>&- &
	# It runs only after the holder ended (cat fails before), with weight 7.
	run -0 --separate-stderr sr --weighted-interleave=0 --weights=0:7 --weights-wait=60 \
		cat "$t/holder-ended" "$WI/node0"
	[ "$output" = $'ended\n7' ]
}

@test "slurm: --weights-wait=SECS gives up after SECS with numactl2's message; the lease's weight stays" {
	test_table 9
	hold_lease sleep 30
	run --separate-stderr sr --weighted-interleave=0 --weights=0:7 --weights-wait=2 touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: gave up after waiting 2 s: node 0 is held at weight 9 by PID "*"; this needs weight 7 there"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(cat "$WI/node0")" = 9 ]
}

@test "slurm: --weights=auto from this host's own node directory: numactl2's weights or numactl2's refusal" {
	local cli=$BATS_TEST_TMPDIR/cli-wi cli_status cli_out cli_err
	test_table 5
	mkdir -p "$cli"
	echo 5 >"$cli/node0"
	NUMACTL2_SYSFS_WI=$cli run --separate-stderr "$NUMACTL2" -w 0 --weights=auto cat "$cli/node0"
	cli_status=$status cli_out=$output cli_err=$stderr
	run --separate-stderr sr --weighted-interleave=0 --weights=auto cat "$WI/node0"
	if [ "$cli_status" -eq 0 ]; then
		[ "$status" -eq 0 ]
		[ "$output" = "$cli_out" ]
	else
		# This host's node has no HMAT bandwidth: the same refusal, nothing written.
		[ "$status" -ne 0 ]
		[ -n "$cli_err" ]
		[[ $stderr == *"error: $cli_err"* ]]
		[ "$(cat "$WI/node0")" = 5 ]
	fi
}

@test "slurm: --weights=auto from a node's HMAT bandwidth: numactl2's weights, written to the copy" {
	local node=$BATS_TEST_TMPDIR/node cli=$BATS_TEST_TMPDIR/cli-wi
	test_table 5
	# From node 0's CPUs (the host's, the task's), its nearest initiator.
	mkdir -p "$node/node0/access1/initiators/node0" "$cli"
	cat /sys/devices/system/node/node0/cpulist >"$node/node0/cpulist"
	echo 50000 >"$node/node0/access1/initiators/read_bandwidth"
	echo 40000 >"$node/node0/access1/initiators/write_bandwidth"
	export NUMACTL2_SYSFS_NODE=$node
	echo 5 >"$cli/node0"
	# --keep-weights: the CLI's weights stay in its copy, to compare with.
	NUMACTL2_SYSFS_WI=$cli run -0 "$NUMACTL2" -w 0 --weights=auto --keep-weights true
	run -0 --separate-stderr sr --weighted-interleave=0 --weights=auto --numa-report cat "$WI/node0"
	[ "$output" = "$(cat "$cli/node0")" ]
	[[ $stderr == *"numactl2: task 0: weighted interleave on nodes 0:$(cat "$cli/node0") (global weights)"* ]]
}

@test "slurm: --weights=measured: the weights numactl2 measures for the same nodes" {
	local cli=$BATS_TEST_TMPDIR/cli-wi cli_w
	test_table 5
	mkdir -p "$cli"
	echo 5 >"$cli/node0"
	NUMACTL2_SYSFS_WI=$cli run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=measured --keep-weights true
	[[ $stderr =~ ": weights "([0-9:,]+) ]]
	cli_w=${BASH_REMATCH[1]}
	run -0 --separate-stderr sr --weighted-interleave=0 --weights=measured --numa-report cat "$WI/node0"
	[ "$output" = "$(cat "$cli/node0")" ]
	[[ $stderr == *"numactl2: task 0: weighted interleave on nodes ${cli_w//,/ } (global weights)"* ]]
}

@test "slurm: sbatch's options reach the job's environment (SLURM_SPANK__SLURM_SPANK_OPTION_numactl2_*) and its steps" {
	local w out=$BATS_TEST_TMPDIR/job.out
	w=$(real_w0)
	run -0 timeout 30 sbatch --wait -o "$out" --weighted-interleave=0 --weights=0:"$w" \
		--weights-wait=5 --numa-report --wrap \
		'env | grep ^SLURM_SPANK_; srun grep " heap " /proc/self/numa_maps | sed "s/^/step: /"'
	run cat "$out"
	echo "$output"
	[[ $output == *"SLURM_SPANK__SLURM_SPANK_OPTION_numactl2_weighted_interleave=0"* ]]
	[[ $output == *"SLURM_SPANK__SLURM_SPANK_OPTION_numactl2_weights=0:$w"* ]]
	[[ $output == *"SLURM_SPANK__SLURM_SPANK_OPTION_numactl2_weights_wait=5"* ]]
	[[ $output == *"SLURM_SPANK__SLURM_SPANK_OPTION_numactl2_numa_report="* ]]
	[[ $output == *"step: "*" weighted interleave:0 heap "* ]]
	# --numa-report: the batch script's task and the step's task each say it.
	[ "$(grep -c "^numactl2: task 0: weighted interleave on nodes 0:$w (one node: no weights needed)$" "$out")" = 2 ]
}

@test "slurm: sbatch's --weights-wait reaches a step: its own --weights wait for the batch script's lease, then give up" {
	local out=$BATS_TEST_TMPDIR/job.out
	test_table 9
	run -0 timeout 40 sbatch --wait -o "$out" --weighted-interleave=0 --weights=0:9 --weights-wait=2 \
		--wrap "srun --weights=0:7 touch '$BATS_TEST_TMPDIR/ran'; echo step exit \$?"
	run cat "$out"
	echo "$output"
	[[ $output == *"numactl2: gave up after waiting 2 s: node 0 is held at weight 9 by PID "*"; this needs weight 7 there"* ]]
	[[ $output == *"step exit 1"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(cat "$WI/node0")" = 9 ]
}

@test "slurm: --mem-bind=map_mem with --weights (test build): refused before a weight is written or leased" {
	test_table 9
	run --separate-stderr sr --mem-bind=map_mem:0 --weighted-interleave=0 --weights=0:7 \
		touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -ne 0 ]
	[[ $stderr == *"numactl2: --weighted-interleave cannot be combined with Slurm's --mem-bind: choose one"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(cat "$WI/node0")" = 9 ]
	[ -z "$(grep -s '^grant ' "$BATS_TEST_TMPDIR/numactl2/state")" ]
}

@test "slurm: --mem-bind=none and --mem-bind=verbose bind nothing: --weighted-interleave applies" {
	run -0 --separate-stderr sr --mem-bind=none --weighted-interleave=0 --weights=0:"$(real_w0)" \
		grep ' heap ' /proc/self/numa_maps
	[[ $output == *" weighted interleave:0 heap "* ]]
	run -0 --separate-stderr sr --mem-bind=verbose --weighted-interleave=0 --weights=0:"$(real_w0)" \
		grep ' heap ' /proc/self/numa_maps
	[[ $output == *" weighted interleave:0 heap "* ]]
}

@test "slurm: sbatch --mem-bind=local with --weighted-interleave: its steps are refused" {
	local out=$BATS_TEST_TMPDIR/job.out
	test_table 9
	run -0 timeout 30 sbatch --wait -o "$out" --mem-bind=local --weighted-interleave=0 --weights=0:9 \
		--wrap "srun touch '$BATS_TEST_TMPDIR/ran'; echo step exit \$?"
	run cat "$out"
	echo "$output"
	[[ $output == *"numactl2: --weighted-interleave cannot be combined with Slurm's --mem-bind: choose one"* ]]
	[[ $output == *"step exit 1"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "slurm: with numactl2d running, the task's weights are the service's, back after the step (test build)" {
	local wi svc pid
	use_plugin "$SLURM_TEST_PLUGIN"
	wi=$(fake_wi_dir 0)
	svc=$(mktemp -d /tmp/numactl2-slurm-svc.XXXXXX)
	mkdir -m 755 "$svc/run"
	: >"$svc/rules"
	NUMACTL2_SYSFS_WI=$wi "$BATS_TEST_DIRNAME/../../build/test/numactl2d" \
		--socket="$svc/run/socket" --state="$svc/state" --rules="$svc/rules" --stderr 2>"$svc/log" &
	pid=$!
	wait_until [ -S "$svc/run/socket" ]
	NUMACTL2_SYSFS_WI=$wi NUMACTL2_OWNER_SOCKET=$svc/run/socket \
		run -0 --separate-stderr sr --weighted-interleave=0 --weights=0:7 cat "$wi/node0"
	[ "$output" = 7 ]
	grep -q "uid 0 set node0 1->7 for pid" "$svc/log" || { cat "$svc/log"; kill "$pid"; return 1; }
	wait_for_value "$wi/node0" 1
	grep -q "put back after pid" "$svc/log" || { kill "$pid"; return 1; }
	kill "$pid"
	wait "$pid" || true
	rm -rf "$svc"
}
