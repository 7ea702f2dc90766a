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
#   owner_client.py SOCKET flood SECS N [unread]  N connections at once, kept
#                                             up for SECS: each one the
#                                             service closes is made again,
#                                             one that finds the listen
#                                             backlog full is tried again;
#                                             none says anything (unread: each
#                                             asks the holders' list) and
#                                             none reads. "backlog full" once
#                                             a connect found it so; at the
#                                             end how many were made, and how
#                                             often the backlog was full
#   owner_client.py SOCKET wait N NODE W      N connections, each asking
#                                             NODE:W for this process and
#                                             waiting up to 60 s for the
#                                             holder in the way: "asked"
#                                             once all are sent; held until
#                                             killed
import os
import resource
import select
import socket
import struct
import sys
import time

# lib/owner/wire.h OWNER_WIRE_VERSION: a service of another version refuses the ask.
WIRE_VERSION = 2
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


def ask(op, node=None, weight=0, wait_ms=0):
    w = bytearray(NODES)
    if node is not None:
        w[node] = weight
    return ASK.pack(WIRE_VERSION, op, 0, wait_ms, 0, bytes(w))


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


def more_files():
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def wait_for_holder(path, n, node, w):
    """N connections the service keeps open (each waits, CONN_WAITING), so
    many before any other that they are all taken on first: a blocking
    connect returns once the connection is in the backlog, which the
    service accepts in order."""
    more_files()
    me = os.pidfd_open(os.getpid())
    held = []
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.connect(path)
        socket.send_fds(s, [ask(LEASE, node, w, 60000)], [me])
        held.append(s)
    print("asked", flush=True)
    time.sleep(60)


def flood_connect(path, unread):
    """A connection, or None when the backlog is full (EAGAIN)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET | socket.SOCK_NONBLOCK)
    try:
        s.connect(path)
    except BlockingIOError:
        s.close()
        return None
    if unread:
        s.send(ask(LIST))
    return s


def flood(path, secs, n, unread):
    more_files()
    end = time.monotonic() + secs
    held, poller = {}, select.poll()
    made = full = 0
    while time.monotonic() < end:
        while len(held) < n:
            s = flood_connect(path, unread)
            if s is None:
                if not full:
                    print("backlog full", flush=True)
                full += 1
                break
            made += 1
            held[s.fileno()] = s
            # No event asked: poll() still says POLLHUP, the service's close.
            poller.register(s, 0)
        for fd, _ in poller.poll(1):
            poller.unregister(fd)
            held.pop(fd).close()
    print(f"made {made}, backlog full {full}", flush=True)


def main():
    path, what = sys.argv[1], sys.argv[2]
    if what == "time":
        bench(path, int(sys.argv[3]))
        return
    if what == "flood":
        flood(path, float(sys.argv[3]), int(sys.argv[4]), sys.argv[5:] == ["unread"])
        return
    if what == "wait":
        wait_for_holder(path, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
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
