#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The same request through both front ends: numactl2 and the Slurm plugin's
# task (slurm/task.c, run without Slurm by build/test/plugintask_driver,
# which says what slurm_spank_task_init() says). The library fills, checks
# and words the request for both (lib/request/fill.c, msg/): the outcome
# and the words are the same. test/slurm/plugin.bats runs the plugin itself.

load helpers

PLUGINTASK_DRIVER=${PLUGINTASK_DRIVER:-$BATS_TEST_DIRNAME/../build/test/plugintask_driver}

setup() {
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for $REAL_WI_DIR"
	[ -x "$PLUGINTASK_DRIVER" ] || skip "needs $PLUGINTASK_DRIVER (make test-build)"
}

# cli ARGS...: numactl2 -w ARGS true, its status and first line of stderr
# in cli_status and cli_said.
cli() {
	run --separate-stderr "$NUMACTL2" -w "$@" true
	cli_status=$status
	cli_said=${stderr_lines[0]:-}
}

# plugin NODES WEIGHTS: the plugin's task with --weighted-interleave=NODES
# --weights=WEIGHTS, on a copy of the table of its own (as another node's).
plugin() {
	local wi=$BATS_TEST_TMPDIR/plugin_wi
	[ -d "$wi" ] || wi_copy_real "$wi"
	NUMACTL2_SYSFS_WI=$wi run --separate-stderr "$PLUGINTASK_DRIVER" "$1" "$2" /bin/true
	plugin_status=$status
	plugin_said=${stderr_lines[0]:-}
}

# same_refusal: both refused (exit 1) with the same words.
same_refusal() {
	[ "$cli_status" -eq 1 ] || return 1
	[ "$plugin_status" -eq 1 ] || return 1
	[ -n "$cli_said" ] || return 1
	[ "$cli_said" = "$plugin_said" ]
}

# refused_alike WORDS NODES WEIGHTS: -w NODES --weights=WEIGHTS refused by
# both with "numactl2: WORDS".
refused_alike() {
	cli "$2" --weights="$3"
	plugin "$2" "$3"
	same_refusal || return 1
	[ "$cli_said" = "numactl2: $1" ]
}

# said_alike WORDS NODES WEIGHTS: -w NODES --weights=WEIGHTS run by both,
# each on a table of its own with node 0 at 1, and both say "numactl2: WORDS"
# first.
said_alike() {
	echo 1 >"$WI_DIR/node0"
	cp -r "$WI_DIR" "$BATS_TEST_TMPDIR/plugin_wi"
	cli "$2" --weights="$3"
	[ "$cli_status" -eq 0 ] || return 1
	plugin "$2" "$3"
	[ "$plugin_status" -eq 0 ] || return 1
	[ "$cli_said" = "numactl2: $1" ] || return 1
	[ "$plugin_said" = "$cli_said" ]
}

@test "front ends: a node this machine does not have, refused in the same words" {
	refused_alike "$(node_absent_error 5 5 | sed 's/^numactl2: //')" 5 5:1
}

@test "front ends: a node list that is no list, refused in the same words" {
	refused_alike "invalid node list '0-x': missing node argument x" 0-x 0:1
}

@test "front ends: a bad weight list, refused in the same words" {
	refused_alike "invalid weight '300' for node 0 (1-255)" 0 0:300
}

@test "front ends: a weight for a node not in the set, refused in the same words" {
	refused_alike "node 1 in --weights is not in the interleave set" 0 1:3
}

@test "front ends: 'local' with no node nearest to the job's CPUs: the same reason, not a bad list" {
	local nd=$BATS_TEST_TMPDIR/one
	mkdir -p "$nd/node0/access1/initiators/node0"
	cat /sys/devices/system/node/node0/cpulist >"$nd/node0/cpulist"
	export NUMACTL2_SYSFS_NODE=$nd
	cli local --weights=0:3
	plugin local 0:3
	same_refusal
	[ "$cli_said" = "numactl2: node list 'local': no node with memory is nearest to the job's CPUs ($nd/nodeN/access1/initiators, or the distances)" ]
}

@test "front ends: 'local' found from the job's CPUs: the same nodes, the same change said" {
	local nd=$BATS_TEST_TMPDIR/one
	mkdir -p "$nd/node0/access1/initiators/node0"
	cat /sys/devices/system/node/node0/cpulist >"$nd/node0/cpulist"
	echo "Node 0 MemTotal:  1048576 kB" >"$nd/node0/meminfo"
	export NUMACTL2_SYSFS_NODE=$nd
	said_alike "changed global interleave weights: node0 1->3; all back as they were once the last job using them ends" \
		local 0:3
	[ "${stderr_lines[1]}" = "numactl2: task 0: weighted interleave on nodes 0:3 (global weights)" ]
}

@test "front ends: the plugin says what its change of the global table did, as numactl2 does" {
	said_alike "changed global interleave weights: node0 1->7; all back as they were once the last job using them ends" \
		0 0:7
	[ "$(cat "$BATS_TEST_TMPDIR/plugin_wi/node0")" = 7 ]
}

@test "front ends: one node needs no weights: the same notice, the table left alone" {
	export NUMACTL2_TEST_ONE_NODE_WEIGHS=0
	said_alike "node 0 alone needs no weights (weighted interleave over one node puts every page there): the global interleave weights are left as they are" \
		0 0:7
	[ "${#stderr_lines[@]}" -eq 2 ]
	[ "$(cat "$WI_DIR/node0")" = 1 ]
	[ "$(cat "$BATS_TEST_TMPDIR/plugin_wi/node0")" = 1 ]
}

# --weights=measured in a memory cgroup too small for the measurement
# (test/memcg.bats): the plugin checks the room as numactl2 does, before
# any memory is touched, instead of being killed by the cgroup's limit.
@test "front ends: --weights=measured where the memory cgroup has no room: the same refusal" {
	local mnt own cg
	[ "$(id -u)" = 0 ] || skip "needs root to make a memory cgroup"
	mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/self/mounts)
	own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
	[ -n "$mnt" ] && [ -n "$own" ] || skip "needs a cgroup v1 memory hierarchy"
	cg=$mnt${own%/}/numactl2-frontends-$$
	mkdir "$cg" || skip "cannot make a memory cgroup under $mnt$own"
	echo $((64 << 20)) >"$cg/memory.limit_in_bytes"
	run --separate-stderr sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" -w 0 --weights=measured true' \
		_ "$cg" "$NUMACTL2"
	cli_status=$status cli_said=${stderr_lines[0]:-}
	wi_copy_real "$BATS_TEST_TMPDIR/plugin_wi"
	NUMACTL2_SYSFS_WI=$BATS_TEST_TMPDIR/plugin_wi run --separate-stderr \
		sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 0 measured /bin/true' _ "$cg" "$PLUGINTASK_DRIVER"
	plugin_status=$status plugin_said=${stderr_lines[0]:-}
	rmdir "$cg"
	[[ $cli_said =~ ^numactl2:\ --measure-size:\ the\ memory\ cgroup\ leaves\ [0-9]+\ MiB,\ less\ than\ 256\ MiB$ ]]
	[ "$plugin_status" -eq 1 ]
	[ "$(sed 's/leaves [0-9]* MiB/leaves N MiB/' <<<"$plugin_said")" = \
	  "$(sed 's/leaves [0-9]* MiB/leaves N MiB/' <<<"$cli_said")" ]
	[ "$cli_status" -eq 1 ]
}

@test "front ends: --weights=auto's notice is a value (msg_auto_notice()): neither catches a printer's words in memory" {
	local b
	for b in "$NUMACTL2" "$PLUGINTASK_DRIVER"; do
		run -0 nm -D --undefined-only "$b"
		# nm read the binary: it calls libnuma.
		[[ $output == *" U numa_"* ]] || return 1
		[[ $output != *fmemopen* ]] || return 1
		[[ $output != *open_memstream* ]] || return 1
	done
}

@test "front ends: --weights=auto from an approximated row (HMAT unread): the same notice" {
	local nd=$BATS_TEST_TMPDIR/node want
	taskset -c 1 true 2>/dev/null || skip "needs CPU 1"
	# Node 0's figure is for its initiator node0 (CPU 0); the job runs on
	# CPU 1, node 1's (test/autoweights.bats).
	mkdir -p "$nd/node0/access1/initiators/node0" "$nd/node1"
	echo 200000 >"$nd/node0/access1/initiators/read_bandwidth"
	echo 200000 >"$nd/node0/access1/initiators/write_bandwidth"
	echo 0 >"$nd/node0/cpulist"
	echo 1 >"$nd/node1/cpulist"
	echo "10 20" >"$nd/node0/distance"
	echo "20 10" >"$nd/node1/distance"
	export NUMACTL2_SYSFS_NODE=$nd NUMACTL2_ACPI_TABLES=$BATS_TEST_TMPDIR/acpi
	want="numactl2: --weights=auto (HMAT: No such file or directory): weights 0:1 approximated from SLIT distances: worst case not known (no node's figure is exact for the job's CPUs); --weights=measured measures from the job's CPUs"
	run -0 --separate-stderr taskset -c 1 "$NUMACTL2" -w 0 --weights=auto true
	[[ $'\n'"$stderr"$'\n' == *$'\n'"$want"$'\n'* ]] || return 1
	wi_copy_real "$BATS_TEST_TMPDIR/plugin_wi"
	NUMACTL2_SYSFS_WI=$BATS_TEST_TMPDIR/plugin_wi run -0 --separate-stderr \
		taskset -c 1 "$PLUGINTASK_DRIVER" 0 auto /bin/true
	[[ $'\n'"$stderr"$'\n' == *$'\n'"$want"$'\n'* ]]
}
