# SPDX-License-Identifier: GPL-2.0-or-later
# The one assertion that a command refuses its input, for the host and the
# guest suites (bats).

NM2_USAGE_HINT="Try 'numactl2 --help' for more information."

# refused [--usage] [--unchanged CMD WANT]... [--absent FILE]... MESSAGE COMMAND [ARG...]
# COMMAND refuses its input: it exits 1, prints nothing on stdout, and its
# stderr is MESSAGE, then nothing more or only numactl2's usage hint (for a
# MESSAGE from numactl2; with --usage, the hint must follow). And nothing
# was done: each CMD (run without arguments) prints WANT afterwards, and
# each FILE (which the command, had it run, would have made) does not
# exist. Every check ends in "|| return 1": it fails on its own, under
# set -e (a test) or not (run).
refused() {
	local -a unchanged=() absent=()
	local msg i rest usage=
	while :; do
		case ${1:-} in
		--usage) usage=1; shift ;;
		--unchanged) [ $# -ge 3 ] || return 1; unchanged+=("$2" "$3"); shift 3 ;;
		--absent) [ $# -ge 2 ] || return 1; absent+=("$2"); shift 2 ;;
		*) break ;;
		esac
	done
	[ $# -ge 2 ] && [ -n "$1" ] || return 1
	msg=$1
	shift
	run --separate-stderr "$@"
	echo "status: $status"
	echo "stdout: $output"
	echo "stderr: $stderr"
	echo "want:   $msg"
	[ "$status" -eq 1 ] || return 1
	[ -z "$output" ] || return 1
	[ "${stderr_lines[0]-}" = "$msg" ] || return 1
	rest=${stderr#"$msg"}
	if [ -n "$usage" ] || [ -n "$rest" ]; then
		[[ $msg == numactl2:* ]] || return 1
		[ "$rest" = $'\n'"$NM2_USAGE_HINT" ] || return 1
	fi
	for ((i = 0; i < ${#unchanged[@]}; i += 2)); do
		[ "$("${unchanged[i]}")" = "${unchanged[i + 1]}" ] || return 1
	done
	for i in "${absent[@]}"; do
		[ ! -e "$i" ] || return 1
	done
}
