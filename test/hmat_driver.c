// SPDX-License-Identifier: GPL-2.0-or-later
/* The firmware's bandwidths as --weights=auto reads them, for
 * test/hmat.bats and test/initiators.bats: the test build's library, so
 * NUMACTL2_ACPI_TABLES and NUMACTL2_SYSFS_NODE name the tables and the
 * node directory (any number of nodes, where the host has one).
 *   hmat_driver matrix
 *	"I>T BW LAT" (MB/s, ns) for each pair HMAT gives, or "error: MESSAGE"
 *   hmat_driver auto NODES CPUNODES|- CPUS|- [BUDGET]
 *	--dry-run's --weights=auto lines for NODES from the CPUs named
 *	(-: not given), or "error: MESSAGE"
 *   hmat_driver notice NODES CPUNODES|- CPUS|-
 *	as auto, then a run's notice as the library gives it
 *	(auto_weights_notice()), "notice: HMAT: WHY; weights N:W,...; WORDS",
 *	or "notice: none" when the row is exact
 *   hmat_driver auto-user NODES CPUNODES|- CPUS|-
 *	as auto, HMAT's rows from numactl2d where HMAT cannot be read
 *   hmat_driver rows NODES CPUNODES|- CPUS|- I>T=MBPS[,...]
 *	the same from HMAT rows handed over (auto_weights_read_rows()), as
 *	the weight-table service would, domains mapped by SRAT; HMAT itself
 *	is not read
 *   hmat_driver local CPUNODES|- CPUS|-
 *	the nodes -w local picks, or "error: MESSAGE" */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth/autoweights.h"
#include "bandwidth/hmat.h"
#include "request/plan.h"

/* A comma list of numbers as a mask of SIZE bits, NULL for "-". */
static struct bitmask *mask_of(const char *s, bool cpus)
{
	struct bitmask *m;
	char *copy, *tok, *save = NULL;

	if (strcmp(s, "-") == 0)
		return NULL;
	m = cpus ? numa_allocate_cpumask() : numa_allocate_nodemask();
	copy = strdup(s);
	if (!m || !copy)
		exit(2);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		numa_bitmask_setbit(m, (unsigned)strtoul(tok, NULL, 10));
	free(copy);
	return m;
}

static int fail(int rc)
{
	printf("error: %s\n", strerror(-rc));
	return 1;
}

static int matrix(void)
{
	static struct hmat h;
	int rc = hmat_read(&h);

	if (rc < 0)
		return fail(rc);
	printf("srat %s\n", h.map.from_srat ? "yes" : "no");
	for (unsigned i = 0; i < BW_MAX_NODES; i++)
		for (unsigned t = 0; t < BW_MAX_NODES; t++)
			if (hmat_bandwidth(&h, i, t) || hmat_latency(&h, i, t))
				printf("%u>%u %u %u\n", i, t, hmat_bandwidth(&h, i, t),
				       hmat_latency(&h, i, t));
	return 0;
}

/* What auto_weights_read() or _read_rows() returned, and if it read them,
 * the weights at BUDGET and their --dry-run lines. */
static int print_auto(int rc, struct auto_weights *aw, unsigned bad, unsigned budget)
{
	if (rc == -ENODATA)
		printf("no bandwidth: node %u\n", bad);
	if (rc < 0)
		return fail(rc);
	rc = auto_weights_choose(aw, budget);
	if (rc < 0)
		return fail(rc);
	auto_weights_print(stdout, aw);
	return 0;
}

static int autow(char **argv, int argc)
{
	static struct auto_weights aw;
	unsigned bad = 0;
	unsigned budget = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 10) : BW_BUDGET_CHOOSE;
	int rc = auto_weights_read(mask_of(argv[2], false), mask_of(argv[3], false),
				   mask_of(argv[4], true), &aw, &bad);

	return print_auto(rc, &aw, bad, budget);
}

/* As autow, and the notice a run would give: its values as they are. */
static int notice(char **argv)
{
	static struct auto_weights aw;
	static struct nc2_auto_notice an;
	unsigned bad = 0;
	int rc = auto_weights_read(mask_of(argv[2], false), mask_of(argv[3], false),
				   mask_of(argv[4], true), &aw, &bad);

	rc = print_auto(rc, &aw, bad, BW_BUDGET_CHOOSE);
	if (rc != 0)
		return rc;
	if (!auto_weights_notice(&aw, &an)) {
		printf("notice: none\n");
		return 0;
	}
	printf("notice: HMAT: %s; weights", an.hmat);
	for (unsigned i = 0; i < an.n; i++)
		printf("%s%u:%u", i ? "," : " ", an.node[i], an.weight[i]);
	printf("; %s\n", an.approximated);
	return 0;
}

/* "I>T=MBPS,..." into ROWS. */
static void rows_of(const char *s, struct hmat_rows *rows)
{
	unsigned i, t, mbps, len;

	*rows = (struct hmat_rows){ .from_srat = true };
	while (sscanf(s, "%u>%u=%u%n", &i, &t, &mbps, &len) == 3 && i < BW_MAX_NODES &&
	       t < BW_MAX_NODES) {
		rows->mbps[i][t] = mbps;
		s += len + (s[len] == ',');
	}
}

static int from_rows(char **argv)
{
	static struct auto_weights aw;
	static struct hmat_rows rows;
	unsigned bad = 0;
	int rc;

	rows_of(argv[5], &rows);
	rc = auto_weights_read_rows(mask_of(argv[2], false), mask_of(argv[3], false),
				    mask_of(argv[4], true), &rows, &aw, &bad);
	return print_auto(rc, &aw, bad, BW_BUDGET_CHOOSE);
}

static int local(char **argv)
{
	struct nc2_error *e = nc2_error_new();
	struct bitmask *out;

	if (!e || nc2_auto_local_nodes(mask_of(argv[2], false), mask_of(argv[3], true), &out, e) < 0) {
		printf("error: fault %d, errno %d\n", e ? (int)nc2_error_fault(e) : -1,
		       e ? nc2_error_errno(e) : ENOMEM);
		nc2_error_free(e);
		return 1;
	}
	nc2_error_free(e);
	nc2_nodes_fprint(stdout, "local", out);
	numa_bitmask_free(out);
	return 0;
}

/* As auto, for a user who cannot read HMAT: the rows from numactl2d, as
 * numactl2's --weights=auto asks them (lib/request/ownerask.c). */
static int auto_user(char **argv)
{
	static struct auto_weights aw;
	static struct policy p;
	struct request r = { .policy = &p };
	unsigned bad = 0;
	int rc;

	p.nodes = mask_of(argv[2], false);
	r.cpunodes = mask_of(argv[3], false);
	r.cpus = mask_of(argv[4], true);
	rc = auto_weights_read(p.nodes, r.cpunodes, r.cpus, &aw, &bad);
	if (rc == 0 && aw.hmat_rc == -EACCES)
		(void)request_owner_rows(&r, &aw);
	return print_auto(rc, &aw, bad, BW_BUDGET_CHOOSE);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "matrix") == 0)
		return matrix();
	if ((argc == 5 || argc == 6) && strcmp(argv[1], "auto") == 0)
		return autow(argv, argc);
	if (argc == 5 && strcmp(argv[1], "notice") == 0)
		return notice(argv);
	if (argc == 5 && strcmp(argv[1], "auto-user") == 0)
		return auto_user(argv);
	if (argc == 6 && strcmp(argv[1], "rows") == 0)
		return from_rows(argv);
	if (argc == 4 && strcmp(argv[1], "local") == 0)
		return local(argv);
	fprintf(stderr, "usage: hmat_driver matrix | auto NODES CPUNODES|- CPUS|- [BUDGET] | "
			"notice NODES CPUNODES|- CPUS|- | auto-user NODES CPUNODES|- CPUS|- | "
			"rows NODES CPUNODES|- CPUS|- I>T=MBPS[,...] | local CPUNODES|- CPUS|-\n");
	return 2;
}
