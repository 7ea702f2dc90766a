// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsing HMAT's System Locality Latency and Bandwidth Information
 * structures (ACPI 6.4, 5.2.28.4). Every count and length is checked
 * against the bytes that are there before anything is read. */
#include <errno.h>
#include <stdlib.h>

#include "bandwidth/acpitable.h"
#include "bandwidth/hmat.h"

/* HMAT: the header and 4 reserved bytes, then structures of
 * type (2), reserved (2), length (4). */
#define HMAT_FIRST 40
#define HMAT_LOCALITY 1
/* A locality structure: flags, data type, counts, base unit, then lists. */
#define LOC_HEAD 32
#define LOC_MEMORY_LEVEL 0x0f	/* flags: 0 is memory, 1-3 are caches */
#define ENTRY_UNREACHABLE 0xffff

/* An entry in MB/s or ns, as the kernel normalises it (hmat_normalize()):
 * 0 for none or out of range; revision 1 in tenths; revision 2 latencies
 * in picoseconds. */
static uint32_t normalise(uint32_t entry, uint64_t base, unsigned type, unsigned revision)
{
	uint64_t v;

	if (entry == 0 || entry == ENTRY_UNREACHABLE || base > UINT32_MAX / entry)
		return 0;
	v = entry * base;
	if (revision == 1)
		return v < 10 ? 0 : (uint32_t)((v + 9) / 10);
	if (type <= HMAT_WRITE_LATENCY)
		return (uint32_t)((v + 999) / 1000);
	return (uint32_t)v;
}

/* One locality structure of LEN bytes at S (LEN >= LOC_HEAD, in bounds). */
static int locality(struct hmat *h, const unsigned char *s, uint64_t len, unsigned revision)
{
	unsigned type = s[9];
	uint64_t ni = acpi_u32(s + 12), nt = acpi_u32(s + 16), base = acpi_u64(s + 24);
	const unsigned char *inits = s + LOC_HEAD, *targets, *entries;

	/* Each count is bounded by the length first, so the product cannot wrap. */
	if (ni > len / 4 || nt > len / 4 || LOC_HEAD + 4 * (ni + nt) + 2 * ni * nt > len)
		return -EBADMSG;
	if ((s[8] & LOC_MEMORY_LEVEL) != 0 || type >= HMAT_DATA_TYPES)
		return 0;
	targets = inits + 4 * ni;
	entries = targets + 4 * nt;
	for (uint64_t i = 0; i < ni; i++) {
		int in = pd_map_node(&h->map, acpi_u32(inits + 4 * i));

		for (uint64_t t = 0; in >= 0 && t < nt; t++) {
			int tn = pd_map_node(&h->map, acpi_u32(targets + 4 * t));

			if (tn >= 0)
				h->v[type][in][tn] = normalise(acpi_u16(entries + 2 * (i * nt + t)),
								base, type, revision);
		}
	}
	return 0;
}

static int structures(struct hmat *h, const struct acpi_table *t)
{
	size_t off = HMAT_FIRST;

	while (off < t->len) {
		const unsigned char *s = t->buf + off;
		uint32_t len;
		int rc;

		if (t->len - off < 8)
			return -EBADMSG;
		len = acpi_u32(s + 4);
		if (len < 8 || len > t->len - off)
			return -EBADMSG;
		if (acpi_u16(s) == HMAT_LOCALITY) {
			rc = len < LOC_HEAD ? -EBADMSG : locality(h, s, len, t->revision);
			if (rc < 0)
				return rc;
		}
		off += len;
	}
	return 0;
}

static bool any_bandwidth(const struct hmat *h)
{
	for (unsigned i = 0; i < BW_MAX_NODES; i++)
		for (unsigned t = 0; t < BW_MAX_NODES; t++)
			if (hmat_bandwidth(h, i, t))
				return true;
	return false;
}

int hmat_read(struct hmat *h)
{
	struct acpi_table t;
	int rc = acpi_table_read("HMAT", &t);

	if (rc < 0)
		return rc;
	*h = (struct hmat){ 0 };
	rc = pd_map_read(&h->map);
	if (rc == 0)
		rc = t.len < HMAT_FIRST ? -EBADMSG : structures(h, &t);
	acpi_table_free(&t);
	if (rc == 0 && !any_bandwidth(h))
		rc = -ENODATA;
	return rc;
}

/* The kernel's rule: "access" values stand for read and write alike. */
static uint32_t either(const struct hmat *h, enum hmat_data access, enum hmat_data one,
		       unsigned i, unsigned t)
{
	return h->v[one][i][t] ? h->v[one][i][t] : h->v[access][i][t];
}

uint32_t hmat_bandwidth(const struct hmat *h, unsigned initiator, unsigned target)
{
	uint32_t r = either(h, HMAT_ACCESS_BW, HMAT_READ_BW, initiator, target);
	uint32_t w = either(h, HMAT_ACCESS_BW, HMAT_WRITE_BW, initiator, target);

	return r < w ? r : w;
}

void hmat_rows(const struct hmat *h, struct hmat_rows *rows)
{
	rows->from_srat = h->map.from_srat;
	for (unsigned i = 0; i < BW_MAX_NODES; i++)
		for (unsigned t = 0; t < BW_MAX_NODES; t++)
			rows->mbps[i][t] = hmat_bandwidth(h, i, t);
}

int hmat_read_rows(struct hmat_rows *rows)
{
	struct hmat *h = malloc(sizeof(*h));
	int rc = h ? hmat_read(h) : -ENOMEM;

	if (rc == 0)
		hmat_rows(h, rows);
	free(h);
	return rc;
}

uint32_t hmat_latency(const struct hmat *h, unsigned initiator, unsigned target)
{
	uint32_t r = either(h, HMAT_ACCESS_LATENCY, HMAT_READ_LATENCY, initiator, target);
	uint32_t w = either(h, HMAT_ACCESS_LATENCY, HMAT_WRITE_LATENCY, initiator, target);

	return !r || !w ? 0 : r > w ? r : w;
}
