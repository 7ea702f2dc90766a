# The lease holders of the host and guest lease suites: a job holding a
# lease on global weights, waiting for its lease, and the message another
# run gets. numactl2 is $NUMACTL2 on the host, the one in PATH in the guest.

# lease_msg NODE HELD PIDS WANT: what a run that needs weight WANT on NODE
# says while PIDS lease weight HELD there.
lease_msg() {
	echo "numactl2: node $1 weight $2 is leased by a running job (PIDs $3); this needs weight $4 there: --wait to queue, --force to override"
}

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
