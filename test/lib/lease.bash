# SPDX-License-Identifier: GPL-2.0-or-later
# The holders of the host and guest lease suites: a job holding global
# weights through the table's owner (root's own numactl2, or numactl2d),
# waiting for its hold, and the message another run gets. numactl2 is
# $NUMACTL2 on the host, the one in PATH in the guest.

# What the notice of a job's change of the global table ends with: the
# table goes back as it was once its last holder has ended (lib/owner).
AFTER_JOB="; all back as they were once the last job using them ends"

# lease_msg NODE HELD PID WANT [COMMAND [UID]]: what a run that needs
# weight WANT on NODE says while PID (running COMMAND, sleep by default, as
# UID, root by default) holds weight HELD there, where no numactl2d runs.
lease_msg() {
	echo "numactl2: node $1 is held at weight $2 by PID $3 (${5:-sleep}, uid ${6:-0}); this needs weight $4 there: --wait to queue, --force to override"
}

# wait_for_value FILE VALUE: until FILE holds VALUE, for wait_until's
# bound. A job's watcher puts the table back after the job has ended, not
# with it: milliseconds on an idle machine, seconds on a busy one.
wait_for_value() {
	wait_until file_is "$1" "$2" && return 0
	echo "$1 is '$(cat "$1" 2>/dev/null)', not '$2'"
	return 1
}

file_is() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }

# wait_weight NODE W: until the table ($WI) gives node NODE weight W.
wait_weight() { wait_for_value "$WI/node$1" "$2"; }

# wait_for_lease NODE PID: until --show lists PID among the holders of
# NODE, for $LEASE_WAIT seconds (30 by default) at most.
wait_for_lease() {
	local end=$((SECONDS + ${LEASE_WAIT:-30}))
	while [ "$SECONDS" -lt "$end" ]; do
		"${NUMACTL2:-numactl2}" --show |
			grep -Eq "^interleave weight holder: pid $2 .* weights ([0-9:]*,)?$1:[0-9]+(,|\$)" && return 0
		sleep 0.05
	done
	echo "no lease on node $1 held by $2"
	"${NUMACTL2:-numactl2}" --show
	return 1
}

# hold NODES WEIGHTS [SECONDS]: a job (sleep, 60 s by default) under
# -w NODES --weights=WEIGHTS in the background, once it holds its lease on
# the first node of WEIGHTS. $holder is its pid (numactl2 execs: the
# job's), added to the array bg for the teardown to end.
hold() {
	"${NUMACTL2:-numactl2}" -w "$1" --weights="$2" sleep "${3:-60}" 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_lease "${2%%:*}" "$holder"
}

# wait_for_comm PID NAME: until process PID runs NAME (30 s at most).
wait_for_comm() {
	local end=$((SECONDS + 30))
	while [ "$SECONDS" -lt "$end" ]; do
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] && return 0
		sleep 0.05
	done
	echo "process $1 never ran $2"
	return 1
}

# start_of PID: its start time, field 22 of /proc/PID/stat.
start_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
