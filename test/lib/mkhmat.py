#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkhmat.py DIR [options]: write ACPI HMAT and SRAT tables into DIR, for the
test build's NUMACTL2_ACPI_TABLES (host tests of lib/bandwidth/hmat.c).

  --cpus N,N      nodes with a CPU (SRAT x2APIC entries, in this order)
  --mems N,N      nodes with memory (SRAT memory entries, in this order)
  --pd N=D,...    node N's proximity domain (default: D = N)
  --bw I:T=MBPS   bandwidth from initiator node I to target node T (an
                  access-bandwidth entry); I:T=R/W gives read and write
  --lat I:T=NS    access latency
  --revision R    HMAT revision (default 2)
  --no-srat       no SRAT file
Hostile tables: --truncate N (cut the HMAT file to N bytes), --length N (its
header's length field), --init-count N (the first locality structure's
initiator count), --struct-length N (that structure's length field),
--bad-checksum, --pad N (N zero bytes after the table, outside its length).
"""
import argparse
import os
import struct


def header(sig, revision, body):
    length = 36 + len(body)
    head = struct.pack("<4sIBB6s8sI4sI", sig, length, revision, 0, b"NM2TST",
                       b"NUMACTL2", 1, b"NM2 ", 1)
    return fix_checksum(bytearray(head + body))


def fix_checksum(table):
    table[9] = 0
    table[9] = (-sum(table)) & 0xff
    return table


def base_unit(values):
    """The smallest power of ten that keeps every entry within 16 bits."""
    base = 1
    while any(v % (base * 10) == 0 for v in values) and max(values) // base > 0xfffe:
        base *= 10
    assert all(v % base == 0 and v // base <= 0xfffe for v in values), values
    return base


def locality(data_type, pairs, pd):
    """One System Locality Latency and Bandwidth structure for PAIRS."""
    inits = sorted({i for i, _ in pairs})
    targets = sorted({t for _, t in pairs})
    base = base_unit(list(pairs.values()))
    body = struct.pack("<BBBBIII Q".replace(" ", ""), 0, data_type, 0, 0, len(inits),
                       len(targets), 0, base)
    body += b"".join(struct.pack("<I", pd[i]) for i in inits)
    body += b"".join(struct.pack("<I", pd[t]) for t in targets)
    body += b"".join(struct.pack("<H", pairs.get((i, t), 0) // base)
                     for i in inits for t in targets)
    return struct.pack("<HHI", 1, 0, 8 + len(body)) + body


def pairs_of(items, scale=1):
    """{type: {(I, T): value}} from I:T=V or I:T=R/W items."""
    out = {}
    for item in items:
        where, value = item.split("=")
        i, t = (int(x) for x in where.split(":"))
        values = [int(v) * scale for v in value.split("/")]
        for kind, v in zip(("access", "read", "write")[len(values) == 2:], values):
            out.setdefault(kind, {})[(i, t)] = v
    return out


def hmat(args, pd):
    body = b"\0" * 4
    bw = pairs_of(args.bw)
    lat = pairs_of(args.lat, 1000 if args.revision >= 2 else 10)
    for kind, data_type in (("access", 0), ("read", 1), ("write", 2)):
        if kind in lat:
            body += locality(data_type, lat[kind], pd)
    for kind, data_type in (("access", 3), ("read", 4), ("write", 5)):
        if kind in bw:
            body += locality(data_type, bw[kind], pd)
    table = header(b"HMAT", args.revision, body)
    first = 40
    if args.init_count is not None:
        struct.pack_into("<I", table, first + 12, args.init_count)
    if args.struct_length is not None:
        struct.pack_into("<I", table, first + 4, args.struct_length)
    if args.length is not None:
        struct.pack_into("<I", table, 4, args.length)
    fix_checksum(table)
    if args.bad_checksum:
        table[9] ^= 0xff
    table += b"\0" * args.pad
    return bytes(table[:args.truncate] if args.truncate is not None else table)


def srat(args, pd):
    body = struct.pack("<I8s", 1, b"\0" * 8)
    for apic, node in enumerate(args.cpus):
        body += struct.pack("<BBHIIII4s", 2, 24, 0, pd[node], apic, 1, 0, b"\0" * 4)
    for k, node in enumerate(args.mems):
        body += struct.pack("<BBIHQQIIQ", 1, 40, pd[node], 0, k << 30, 1 << 30, 0, 1, 0)
    return bytes(header(b"SRAT", 3, body))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--cpus", type=lambda s: [int(x) for x in s.split(",")], default=[])
    p.add_argument("--mems", type=lambda s: [int(x) for x in s.split(",")], default=[])
    p.add_argument("--pd", default="")
    p.add_argument("--bw", action="append", default=[])
    p.add_argument("--lat", action="append", default=[])
    p.add_argument("--revision", type=int, default=2)
    p.add_argument("--no-srat", action="store_true")
    for opt in ("truncate", "length", "init-count", "struct-length"):
        p.add_argument("--" + opt, type=int)
    p.add_argument("--pad", type=int, default=0)
    p.add_argument("--bad-checksum", action="store_true")
    args = p.parse_args()
    pd = {n: n for n in range(64)}
    pd.update({int(a): int(b) for a, b in (x.split("=") for x in args.pd.split(",") if x)})
    os.makedirs(args.dir, exist_ok=True)
    with open(os.path.join(args.dir, "HMAT"), "wb") as f:
        f.write(hmat(args, pd))
    if not args.no_srat:
        with open(os.path.join(args.dir, "SRAT"), "wb") as f:
            f.write(srat(args, pd))


main()
