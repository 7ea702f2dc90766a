#!/usr/bin/env bats
# bwweights.c through its test driver: numactl2's weights against the
# exhaustive oracle, the kernel's and HMSDK's rounding, and bad input.

load helpers

# weights METHOD BUDGET BW... EXPECTED: the weights and efficiency printed.
weights() {
	local expected=${*: -1}
	run -0 --separate-stderr "$BWWEIGHTS_DRIVER" "${@:1:$#-1}"
	[ "$output" = "$expected" ]
}

# same_as_oracle BUDGET BW...: optimal and the oracle print the same line.
same_as_oracle() {
	local oracle
	run -0 "$BWWEIGHTS_DRIVER" oracle "$@"
	oracle=$output
	run -0 "$BWWEIGHTS_DRIVER" optimal "$@"
	[ "$output" = "$oracle" ]
}

# What the driver says when the weights are refused with EINVAL or ERANGE
# (refused, test/lib/refused.bash: exit 1, no weights).
EINVAL="error: Invalid argument"
ERANGE="error: Numerical result out of range"

@test "the guest's 200/100/50/25 GB/s: exact 8:4:2:1, where the kernel gives 17:8:4:2 and HMSDK 12:6:3:2" {
	weights optimal 32 200000 100000 50000 25000 "8:4:2:1 100.000%"
	weights oracle 32 200000 100000 50000 25000 "8:4:2:1 100.000%"
	weights kernel 32 200000 100000 50000 25000 "17:8:4:2 97.255%"
	weights hmsdk 32 200000 100000 50000 25000 "12:6:3:2 76.667%"
}

@test "the seed's STREAM (triad) and MLC figures equal the oracle at 32" {
	same_as_oracle 32 208524 24485
	same_as_oracle 32 200923 22210
	same_as_oracle 32 298800 113700
	same_as_oracle 32 273200 109500
}

@test "ties: the smallest sum, then the highest node limits, then the lexicographically smallest" {
	# 4:2:1:1 and 1:4:2:1 both reach 200 at S = 8: node 3 limits both. The
	# node limits of 4:2:1:1 are 400 400 400 200, of 1:4:2:1 1600 200 200 200.
	weights optimal 8 200000 100000 50000 25000 "4:2:1:1 53.333%"
	weights oracle 8 200000 100000 50000 25000 "4:2:1:1 53.333%"
	weights optimal 12 200000 100000 50000 25000 "7:3:1:1 80.000%"
	weights oracle 12 200000 100000 50000 25000 "7:3:1:1 80.000%"
	weights optimal 32 100000 100000 "1:1 100.000%"
	weights optimal 32 5 5 5 5 5 5 5 5 "1:1:1:1:1:1:1:1 100.000%"
	# Node 0 limits every choice to 10 * S: 1:1:2 and 1:2:1 tie at S = 4.
	weights optimal 4 10 100 100 "1:1:2 19.048%"
	weights oracle 4 10 100 100 "1:1:2 19.048%"
	weights optimal 5 2 3 "2:3 100.000%"
}

@test "the budget bounds the sum: 9:1 needs 10, a budget of 9 cannot have it" {
	weights optimal 10 900 100 "9:1 100.000%"
	weights optimal 9 900 100 "8:1 90.000%"
	same_as_oracle 9 900 100
	weights optimal 2 900 100 "1:1 20.000%"
}

@test "random tables with 2-6 nodes at the kernel's budget of 32 equal the oracle" {
	run -0 "$BWWEIGHTS_DRIVER" random 1 240 2 6 32
	[ "$output" = "240 tables, 240 equal the oracle" ]
}

@test "random tables with 7 and 8 nodes at 32 equal the oracle" {
	run -0 "$BWWEIGHTS_DRIVER" random 2 12 7 8 32
	[ "$output" = "12 tables, 12 equal the oracle" ]
}

@test "random tables at other budgets equal the oracle" {
	run -0 "$BWWEIGHTS_DRIVER" random 3 60 2 3 255
	[ "$output" = "60 tables, 60 equal the oracle" ]
	run -0 "$BWWEIGHTS_DRIVER" random 4 30 4 4 64
	[ "$output" = "30 tables, 30 equal the oracle" ]
	run -0 "$BWWEIGHTS_DRIVER" random 5 60 2 5 12
	[ "$output" = "60 tables, 60 equal the oracle" ]
}

@test "the driver's random check fails when the tables differ from the oracle" {
	# A budget below the node count makes bw_optimal_weights refuse: no match.
	run -1 "$BWWEIGHTS_DRIVER" random 1 3 4 4 3
	[ "${lines[-1]}" = "3 tables, 0 equal the oracle" ]
}

@test "bad input: no weights for a budget below the node count, above 255, or a bandwidth <= 0" {
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" optimal 2 1 1 1
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" optimal 256 1 1
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" optimal 32 100 0
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" optimal 32 100 -5
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" optimal 32 nan 100
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" optimal 32 inf 100
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" kernel 0 100 100
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" hmsdk 0 0.5 100
}

@test "bad input: more than 64 nodes" {
	run -0 "$BWWEIGHTS_DRIVER" optimal 255 $(seq 64)
	refused "$EINVAL" "$BWWEIGHTS_DRIVER" optimal 255 $(seq 65)
}

@test "HMSDK stops halving before a value falls to 1 and may exceed 255" {
	# 1000:3 halves once to 500:1.5 (0.75 is too small), rounds to 500:2, gcd 250:1.
	weights hmsdk 32 1000 3 "250:1 75.075%"
	# 2000:3 ends at 1000:2, which is 500:1.
	refused "$ERANGE" "$BWWEIGHTS_DRIVER" hmsdk 32 2000 3
}

@test "bench/weights passes, and fails when numactl2's rounding is the kernel's" {
	local top=$BATS_TEST_DIRNAME/..
	run -0 make -s -C "$top" bench/weights
	run -0 "$top/bench/weights"
	[ "${lines[-1]}" = "bench/weights: numactl2 is never below another method and equals the exhaustive optimum" ]
	run -0 make -s -C "$top" bench/weights-weak
	run -1 "$top/bench/weights-weak"
	[ "${lines[-1]}" = "bench/weights: FAILED" ]
	[[ $output == *"FAIL guest HMAT 200/100/50/25: numactl2's weights differ from the exhaustive optimum"* ]] || return 1
}
