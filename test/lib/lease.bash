# SPDX-License-Identifier: GPL-2.0-or-later
# The lease holders of the host and guest lease suites: a job holding a
# lease on global weights, waiting for its lease, and the message another
# run gets. numactl2 is $NUMACTL2 on the host, the one in PATH in the guest.

# What the notice of a job's change of the global table ends with: the
# table goes back as it was (lib/weights/baseline.c).
AFTER_JOB="; all back as they were once the last job using them ends"

# lease_msg NODE HELD PIDS WANT: what a run that needs weight WANT on NODE
# says while PIDS lease weight HELD there.
lease_msg() {
	echo "numactl2: node $1 weight $2 is leased by a running job (PIDs $3); this needs weight $4 there: --wait to queue, --force to override"
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
			grep -Eq "^interleave weight lease: node $1 weight [0-9]+ pids (.* )?$2( |\$)" && return 0
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

# Bash code that closes every descriptor above 2, as close_range(3, ~0),
# closefrom() or Python's close_fds do: the lease descriptors among them.
CLOSE_ALL='for f in /proc/$$/fd/*; do f=${f##*/}; [ "$f" -gt 2 ] && eval "exec $f>&-"; done'

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

# closer NODES WEIGHTS: a job under -w NODES --weights=WEIGHTS that closes
# its descriptors and sleeps, in the background; $holder is its pid, added
# to the array bg for the teardown to end.
closer() {
	"${NUMACTL2:-numactl2}" -w "$1" --weights="$2" bash -c "$CLOSE_ALL; exec sleep 60" 2>/dev/null &
	holder=$!
	bg+=("$holder")
	wait_for_comm "$holder" sleep
}

# record_of PID: the name of a lease record that names PID, in $LEASES
# (the host's test directory) or /dev/shm.
record_of() {
	local r
	for r in "${LEASES:-/dev/shm}"/numactl2-lease.*."$1".*; do
		[ -e "$r" ] || continue
		echo "${r##*/}"
		return 0
	done
	return 1
}

# start_of PID: its start time, field 22 of /proc/PID/stat.
start_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
