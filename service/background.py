"""Followers of the log that run beside the API in one process (`caboose serve`): the notifier,
the bot runner. Each round is retried at the next tick after a passing error, which is logged."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


def every(interval: float, round_: Callable[[], Any], name: str) -> threading.Event:
    """Run `round_` every `interval` seconds in a daemon thread until the returned event is set."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval):
            try:
                round_()
            except Exception:  # keep going after a passing database error, but say so
                log.warning("%s round failed; trying again in %s s", name, interval, exc_info=True)

    threading.Thread(target=loop, name=f"caboose-{name}", daemon=True).start()
    return stop
