# Shared by test/slurm/*.bats: the cluster test/slurm/run started
# (SLURM_CONF, SLURM_TEST_DIR), the release plugin (SLURM_PLUGIN) and its
# test build (SLURM_TEST_PLUGIN), which reads a copy of the weight table.
load ../helpers

# Every Slurm client call is bounded: a test never hangs the part.
sr() { timeout -k 5 60 srun "$@" </dev/null; }

# Which plugin the next steps load (srun and slurmstepd read plugstack.conf
# at each step).
use_plugin() {
	echo "required $1" >"$SLURM_TEST_DIR/plugstack.conf"
}

# The real table's weight of node 0: what "weights that already hold" ask
# for, so that the release plugin never writes it (compare-before-write).
real_w0() {
	cat "$REAL_WI_DIR/node0"
}

# No job of ours left in the queue.
no_jobs() {
	[ -z "$(squeue -h -o %i 2>/dev/null)" ]
}
