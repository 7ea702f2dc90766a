# SPDX-License-Identifier: GPL-2.0-or-later
# What --dry-run promises: its throughput figures ("266.2 GB/s"), checked
# against what the job's socket can draw, for the host and guest suites
# (plain POSIX awk: the guest has busybox awk).

# figures_at_most LIMIT: $output has at least one "N.N GB/s" figure, and
# none above LIMIT (GB/s); the ones above are named on stderr.
figures_at_most() {
	local f
	f=$(printf '%s\n' "$output" | grep -Eo '[0-9]+\.[0-9] GB/s' |
		awk -v max="$1" '{ n++; if ($1 + 0 > max + 0) bad = bad " " $1 } END { print n + 0 ":" bad }')
	[ "${f%%:*}" -gt 0 ] || return 1
	[ -z "${f#*:}" ] || { echo "figures above $1 GB/s:${f#*:}" >&2; return 1; }
}
