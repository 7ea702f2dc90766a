#!/usr/bin/env bats
# Bash completion (completion/numactl2), called as bash calls it: COMP_WORDS
# and COMP_CWORD set, the words split at "=" as COMP_WORDBREAKS splits them.
# They test the script (numactl2 only gives its --help), so test/check-all's
# fakes part, which runs the files that run "\$NUMACTL2", leaves them out.

load helpers

setup() {
	source "$BATS_TEST_DIRNAME/../completion/numactl2"
}

# complete WORD...: the completions of the last word.
complete_words() {
	COMP_WORDS=("${NUMACTL2}" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_numactl2
	printf '%s\n' "${COMPREPLY[@]}"
}

host_nodes() {
	local n
	for n in /sys/devices/system/node/node[0-9]*; do echo "${n##*node}"; done
}

@test "completion: options from numactl2 --help" {
	run -0 complete_words --wei
	[[ $output == *"--weighted-interleave="* ]]
	[[ $output == *"--weights="* ]]
	[[ $output == *"--weight-budget="* ]]
	run -0 complete_words --dry
	[ "$output" = --dry-run ]
	run -0 complete_words --wa
	[ "$output" = --wait= ]
}

@test "completion: node lists from /sys/devices/system/node, and all" {
	run -0 complete_words -w = ""
	[ "$output" = "$(printf '%s\n' all $(host_nodes))" ]
	run -0 complete_words --membind = a
	[ "$output" = all ]
	run -0 complete_words -i ""
	[[ $output == *all* ]]
	run -0 complete_words -w = "0,"
	[ "$output" = "$(host_nodes | sed 's/^/0,/')" ]
}

@test "completion: auto and measured after --weights=" {
	run -0 complete_words -w = 0 --weights = ""
	[ "$output" = "$(printf '%s\n' auto measured)" ]
	run -0 complete_words -w = 0 --weights = me
	[ "$output" = measured ]
	# Where "=" does not split the word, the option stays in front.
	run -0 complete_words -w 0 --weights=au
	[ "$output" = --weights=auto ]
}

@test "completion: the command after the options, then its own completion" {
	run -0 complete_words -w = all --weights = auto bas
	[[ $'\n'$output$'\n' == *$'\nbash\n'* ]]
	# "--wait 5": --wait's argument is optional, so 5 is the command.
	_command_offset() { echo "offset $1 ${COMP_WORDS[*]}"; }
	run -0 complete_words -w 0 --wait ls -l
	[ "$output" = "offset 4 $NUMACTL2 -w 0 --wait ls -l" ]
	run -0 complete_words -i 0 ls -
	[ "$output" = "offset 3 $NUMACTL2 -i 0 ls -" ]
	run -0 complete_words -- -x
	[ "$output" = "offset 2 $NUMACTL2 -- -x" ]
}

@test "completion: process ids after --pid=" {
	run -0 complete_words --pid = "$$"
	[[ $'\n'$output$'\n' == *$'\n'"$$"$'\n'* ]]
	run -0 complete_words --pid = ""
	[ "${#lines[@]}" -gt 1 ]
	run -0 complete_words --p
	[[ $output == *"--pid="* ]]
}
