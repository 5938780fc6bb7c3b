"""Loopback ports for the servers a test starts in a process of its own (gunicorn, `infra/run`,
an SMTP receiver), which must be told their port before they bind it.

A port is probed and released, then bound by the server a moment later, so two test processes
probing at once could be handed the same one. Under pytest-xdist each worker therefore draws
from a block of its own, and every block lies below the kernel's ephemeral range, where no
outgoing connection takes a port between the probe and the bind. A run without workers draws
from all the blocks."""

from __future__ import annotations

import contextlib
import os
import random
import socket

FIRST, BLOCK, BLOCKS = 20000, 1500, 8
"""Ports 20000–31999, in eight blocks of 1,500: one per worker (gw0…gw7, then round again)."""


def worker_ports() -> range:
    """This process's block: its xdist worker's, or every block outside xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or not worker[2:].isdigit():
        return range(FIRST, FIRST + BLOCK * BLOCKS)
    start = FIRST + BLOCK * (int(worker[2:]) % BLOCKS)
    return range(start, start + BLOCK)


def free_ports(count: int) -> int:
    """The first of `count` consecutive loopback ports of this worker's block that are free now."""
    ports = worker_ports()
    for _ in range(200):
        first = random.randint(ports.start, ports.stop - count)
        try:
            with contextlib.ExitStack() as held:
                for port in range(first, first + count):
                    probe = held.enter_context(socket.socket())
                    probe.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
    raise RuntimeError(f"found no {count} consecutive free ports in {ports.start}–{ports.stop - 1}")


def free_port() -> int:
    """One loopback port of this worker's block that is free now."""
    return free_ports(1)
