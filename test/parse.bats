#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The pure parsers through their test driver: good inputs and what they
# mean, bad inputs and the message main() would print.

load helpers

# ok KIND INPUT EXPECTED
ok() {
	run -0 --separate-stderr "$PARSE_DRIVER" "$1" "$2"
	[ "$output" = "$3" ]
}

# bad KIND INPUT MESSAGE: the driver refuses INPUT with "error: MESSAGE"
# (test/lib/refused.bash).
bad() {
	refused "error: $3" "$PARSE_DRIVER" "$1" "$2"
}

@test "weight lists: nodes, ranges, any order" {
	ok weights 0:9,1:1 "0:9 1:1"
	ok weights 1-3:2,0:5 "0:5 1:2 2:2 3:2"
	ok weights 0-0:255 "0:255"
	ok weights 1023:1 "1023:1"
	ok weights 007:010 "7:10"
}

@test "weight lists: weights outside 1-255" {
	bad weights 0:0 "invalid weight '0' for node 0 (1-255)"
	bad weights 2:256 "invalid weight '256' for node 2 (1-255)"
	bad weights 0:4294967296 "invalid weight '4294967296' for node 0 (1-255)"
	bad weights 0:18446744073709551617 "invalid weight '18446744073709551617' for node 0 (1-255)"
	bad weights 0:-1 "invalid weight '-1' for node 0 (1-255)"
	bad weights 0:+1 "invalid weight '+1' for node 0 (1-255)"
	bad weights "0: 1" "invalid weight ' 1' for node 0 (1-255)"
	bad weights 0:0x10 "invalid weight '0x10' for node 0 (1-255)"
	bad weights 0: "invalid weight '' for node 0 (1-255)"
}

@test "weight lists: bad nodes" {
	bad weights 3-1:1 "invalid node '3-1' in weight list (0-1023, or A-B with A <= B)"
	bad weights 1024:1 "invalid node '1024' in weight list (0-1023, or A-B with A <= B)"
	bad weights 4294967296:1 "invalid node '4294967296' in weight list (0-1023, or A-B with A <= B)"
	bad weights -1:1 "invalid node '-1' in weight list (0-1023, or A-B with A <= B)"
	bad weights 1-:1 "invalid node '1-' in weight list (0-1023, or A-B with A <= B)"
	bad weights :1 "invalid node '' in weight list (0-1023, or A-B with A <= B)"
}

@test "weight lists: structure" {
	bad weights "" "empty item in weight list"
	bad weights 0:1, "empty item in weight list"
	bad weights ,0:1 "empty item in weight list"
	bad weights 0:1,,1:1 "empty item in weight list"
	bad weights 0 "invalid weight list item '0' (expected NODES:WEIGHT)"
	bad weights 0:1:2 "invalid weight '1:2' for node 0 (1-255)"
	bad weights 0:1,0:2 "node 0 named twice in weight list: '0:2'"
	bad weights 0-3:1,2:2 "node 2 named twice in weight list: '2:2'"
}

# As libnuma reads them, without a machine: the Slurm plugin's check in
# srun/sbatch (slurm/spankopts.c).
@test "node lists: syntax" {
	ok nodes 0 ok
	ok nodes 0-3,5 ok
	ok nodes 1023 ok
	ok nodes all ok
	ok nodes '!0-1' ok
	ok nodes +1 ok
	ok nodes '!all' ok
	bad nodes 1-0 "invalid node '1-0' in node list (0-1023, or A-B with A <= B)"
	bad nodes - "invalid node '-' in node list (0-1023, or A-B with A <= B)"
	bad nodes 0- "invalid node '0-' in node list (0-1023, or A-B with A <= B)"
	bad nodes ,,, "empty item in node list"
	bad nodes 0,,1 "empty item in node list"
	bad nodes 0, "empty item in node list"
	bad nodes '' "empty item in node list"
	bad nodes '!' "empty item in node list"
	bad nodes 1024 "invalid node '1024' in node list (0-1023, or A-B with A <= B)"
	bad nodes 4294967296 "invalid node '4294967296' in node list (0-1023, or A-B with A <= B)"
	bad nodes 0-x "invalid node '0-x' in node list (0-1023, or A-B with A <= B)"
	bad nodes ' 0' "invalid node ' 0' in node list (0-1023, or A-B with A <= B)"
}

@test "sizes: k, m, g and t suffixes in powers of 1024" {
	ok size 4096 4096
	ok size 1k 1024
	ok size 2M 2097152
	ok size 1g 1073741824
	ok size 1T 1099511627776
	bad size "" "invalid length: ''"
	bad size 1x "invalid length: '1x'"
	bad size -1 "invalid length: '-1'"
	bad size 0x10 "invalid length: '0x10'"
	bad size 18446744073709551616 "invalid length: '18446744073709551616'"
	bad size 99999999999999999g "length '99999999999999999g' is too large"
}

@test "octal modes" {
	ok mode 0600 0600
	ok mode 644 0644
	bad mode 0800 "invalid mode: '0800'"
	bad mode 17777 "invalid mode: '17777'"
	bad mode "" "invalid mode: ''"
}

@test "the number primitive: base 10, no sign, explicit maximum" {
	run -0 "$PARSE_DRIVER" ulong 4294967295 4294967295
	[ "$output" = 4294967295 ]
	run -1 "$PARSE_DRIVER" ulong 4294967296 4294967295
	run -1 "$PARSE_DRIVER" ulong 18446744073709551616 18446744073709551615
	run -1 "$PARSE_DRIVER" ulong " 1" 10
	run -1 "$PARSE_DRIVER" ulong "1 " 10
	run -1 "$PARSE_DRIVER" ulong "" 10
	run -1 "$PARSE_DRIVER" ulong 11 10
	run -0 "$PARSE_DRIVER" ulong 010 10
	[ "$output" = 10 ]
}
