#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# A client of numactl2d that does what numactl2 never does, for
# test/service.bats: it stays silent, sends another process's pidfd, or
# sends junk. Each prints the verdict it got (a number, lib/owner/wire.h) or
# what happened to the connection.
#   owner_client.py SOCKET silent SECS        connect, say nothing; what the
#                                             service does within SECS
#   owner_client.py SOCKET foreign PID NODE W  ask NODE:W for PID's pidfd
#                                             (self: its own)
#   owner_client.py SOCKET short              send a message of the wrong size
#   owner_client.py SOCKET list               the holders: "pid uid comm"
#   owner_client.py SOCKET time ROUNDS         bench/owner's round trips (ms,
#                                             median/p99): a lease on node 0's
#                                             weight, a change of node 1 (by a
#                                             child each time), a refusal
import os
import socket
import struct
import sys
import time

NODES = 1024
ASK = struct.Struct(f"=IIIII{NODES}s")
ANSWER = struct.Struct(f"=IiiIII{NODES}s{NODES}s200s")
LEASE, RELEASE, LIST = 1, 2, 3
VERDICTS = ["GRANTED", "RELEASED", "HOLDER", "END", "REFUSED", "CONFLICT", "LIMIT",
            "BAD_ASK", "UNSAVED", "WRITE_FAILED", "NOT_HOLDER", "BUSY"]


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(30)
    s.connect(path)
    return s


def answer(s):
    data = s.recv(ANSWER.size)
    if not data:
        return "closed"
    if len(data) != ANSWER.size:
        return f"short answer {len(data)}"
    return VERDICTS[ANSWER.unpack(data)[1]]


def ask(op, node=None, weight=0):
    w = bytearray(NODES)
    if node is not None:
        w[node] = weight
    return ASK.pack(1, op, 0, 0, 0, bytes(w))


def round_trip(path, msg, fds):
    start = time.perf_counter()
    s = connect(path)
    socket.send_fds(s, [msg], fds) if fds else s.send(msg)
    verdict = answer(s)
    s.close()
    return (time.perf_counter() - start) * 1000, verdict


def in_child(path, node, w):
    """An ask by a process that then ends (its lease with it): its time on
    a pipe; the service puts a change back when it sees the end."""
    r, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        fd = os.pidfd_open(os.getpid())
        ms, verdict = round_trip(path, ask(LEASE, node, w), [fd])
        os.write(wr, f"{ms} {verdict}".encode())
        os._exit(0)
    os.close(wr)
    out = os.read(r, 100).decode().split()
    os.waitpid(pid, 0)
    os.close(r)
    return float(out[0]), out[1]


def stats(xs):
    xs = sorted(xs)
    return f"{xs[len(xs) // 2]:.3f}/{xs[min(len(xs) - 1, len(xs) * 99 // 100)]:.3f}"


def bench(path, rounds):
    lease, change, refusal = [], [], []
    me = os.pidfd_open(os.getpid())
    for i in range(rounds):
        ms, v = in_child(path, 0, 1)
        assert v == "GRANTED", v
        lease.append(ms)
        ms, v = in_child(path, 1, 2 + i % 2)
        assert v == "GRANTED", v
        change.append(ms)
        ms, v = round_trip(path, ask(LEASE, 0, 9), [me])
        assert v == "CONFLICT", v
        refusal.append(ms)
    print(f"{stats(lease):<22} {stats(change):<22} {stats(refusal):<22}")


def main():
    path, what = sys.argv[1], sys.argv[2]
    if what == "time":
        bench(path, int(sys.argv[3]))
        return
    s = connect(path)
    if what == "silent":
        print("connected", flush=True)
        s.settimeout(float(sys.argv[3]))
        try:
            print(answer(s))
        except socket.timeout:
            print("still open")
    elif what == "foreign":
        pid = os.getpid() if sys.argv[3] == "self" else int(sys.argv[3])
        fd = os.pidfd_open(pid)
        socket.send_fds(s, [ask(LEASE, int(sys.argv[4]), int(sys.argv[5]))], [fd])
        print(answer(s))
    elif what == "short":
        s.send(b"x" * 10)
        print(answer(s))
    elif what == "list":
        s.send(ask(LIST))
        while True:
            data = s.recv(ANSWER.size)
            f = ANSWER.unpack(data)
            if VERDICTS[f[1]] != "HOLDER":
                break
            print(f[4], f[5], f[8].split(b"\0")[0].decode())


main()
