// SPDX-License-Identifier: GPL-2.0-or-later
/* Proximity domains to nodes through SRAT, in the order the kernel numbers
 * them (drivers/acpi/numa/srat.c, acpi_numa_init(): the CPU and initiator
 * entries in one pass, then the memory entries; each new enabled domain
 * takes the lowest free node). Nodes the kernel adds later (CXL windows
 * without an SRAT entry) come after these, so those found here stand. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "bandwidth/acpitable.h"
#include "bandwidth/nodeperf.h"
#include "bandwidth/srat.h"

/* SRAT: the header, 4 bytes of table revision and 8 reserved. */
#define SRAT_FIRST 48

/* The entries that give a node: where their domain and flags are. */
struct srat_kind {
	unsigned type, min_len, pd_at, flags_at;
	bool cpus;		/* the first pass: CPUs and other initiators */
};

static const struct srat_kind kinds[] = {
	{ 0, 16, 2, 4, true },		/* local APIC: domain bits 8-31 at 9 */
	{ 1, 40, 2, 28, false },	/* memory */
	{ 2, 24, 4, 12, true },		/* x2APIC */
	{ 3, 18, 2, 10, true },		/* GICC */
	{ 5, 32, 4, 24, true },		/* generic initiator */
};

/* The domain of an enabled entry of the pass (CPUs or memory), or false. */
static bool entry_domain(const struct acpi_table *t, const unsigned char *e, bool cpus,
			 uint32_t *pd)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct srat_kind *k = &kinds[i];

		if (k->type != e[0] || k->cpus != cpus || e[1] < k->min_len ||
		    !(acpi_u32(e + k->flags_at) & 1))
			continue;
		*pd = k->type == 0 ? e[2] : acpi_u32(e + k->pd_at);
		if (k->type == 0 && t->revision >= 2)
			*pd |= (uint32_t)e[9] << 8 | (uint32_t)e[10] << 16 | (uint32_t)e[11] << 24;
		return true;
	}
	return false;
}

/* Adds a domain not seen before. false when there are too many. */
static bool add_domain(struct pd_map *m, uint32_t pd)
{
	if (pd_map_node(m, pd) >= 0)
		return true;
	if (m->n == BW_MAX_NODES)
		return false;
	m->pd[m->n++] = pd;
	return true;
}

/* One pass over the entries; false on an entry whose length lies. */
static bool srat_pass(const struct acpi_table *t, struct pd_map *m, bool cpus)
{
	size_t off = SRAT_FIRST;

	while (off + 2 <= t->len) {
		const unsigned char *e = t->buf + off;
		uint32_t pd;

		if (e[1] < 2 || e[1] > t->len - off)
			return false;
		if (entry_domain(t, e, cpus, &pd) && !add_domain(m, pd))
			return false;
		off += e[1];
	}
	return off == t->len;
}

static bool node_exists(unsigned node)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/node%u", nodeperf_dir(), node);
	return access(path, F_OK) == 0;
}

int pd_map_read(struct pd_map *m)
{
	struct acpi_table t;
	int rc = acpi_table_read("SRAT", &t);
	bool ok = rc == 0 && t.len >= SRAT_FIRST;

	if (rc == -ENOMEM)
		return rc;
	*m = (struct pd_map){ .from_srat = true };
	ok = ok && srat_pass(&t, m, true) && srat_pass(&t, m, false) && m->n > 0;
	for (unsigned i = 0; ok && i < m->n; i++)
		ok = node_exists(i);
	acpi_table_free(&t);
	if (!ok)
		*m = (struct pd_map){ .from_srat = false };
	return 0;
}

int pd_map_node(const struct pd_map *m, uint32_t pd)
{
	if (!m->from_srat)
		return pd < BW_MAX_NODES ? (int)pd : -1;
	for (unsigned i = 0; i < m->n; i++)
		if (m->pd[i] == pd)
			return (int)i;
	return -1;
}
