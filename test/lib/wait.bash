# SPDX-License-Identifier: GPL-2.0-or-later
# wait_until CMD...: run CMD until it succeeds, for WAIT_SECS (30) at most.
# The bound catches a hang, not slowness: under load (make check beside two
# busy processes, or a TCG guest on a busy host) a step that takes
# milliseconds alone has been seen to take over 2 s, so no test waits for
# "a few" seconds and calls that a failure.
# The fakes part sets less: a broken binary never brings the state about,
# and a shorter wait can only fail a test sooner.
WAIT_SECS=${WAIT_SECS:-30}

wait_until() {
	local end=$((SECONDS + WAIT_SECS))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "wait_until: still false after $WAIT_SECS s: $*"
			return 1
		fi
		sleep 0.02
	done
}
