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
import os
import socket
import struct
import sys

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


def main():
    path, what = sys.argv[1], sys.argv[2]
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
