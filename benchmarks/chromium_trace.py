"""What a Chromium trace says about a page, for the viewer benchmark: the renderer main
thread's CPU time, and each key press's latency from the key to the frame that showed it.

Both come from the browser's own trace events, so neither is rounded (the page's Event Timing
rounds a duration to 8 ms) nor inflated by the machine's other load as a wall clock is.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

FRAME_MS = 1000 / 60
# The stage of a key's latency in which the key has been handled and the browser waits for
# its frame clock to begin the next frame (at 60 Hz, up to a frame): the page has no part in it.
FRAME_WAIT = "RendererMainFinishedToBeginImplFrame"


def events_of(trace: bytes) -> list[dict[str, Any]]:
    return json.loads(trace)["traceEvents"]


def main_thread_cpu(trace: bytes, since: str | None = None, until: str | None = None) -> float:
    """The renderer main thread's CPU time in a trace, in ms, which the machine's other load
    inflates less than the wall clock: all of it (a run of steps), or from the navigation
    whose URL holds `since` to the page's mark `until` (the first board of a new tab)."""
    events = events_of(trace)
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    first, last = -math.inf, math.inf
    if since is not None and until is not None:
        starts = [e["ts"] for e in events if e.get("name") == "navigationStart" and since in json.dumps(e.get("args", {}))]
        marks = [e["ts"] for e in events if e.get("name") == until]
        if not starts or not marks:
            return float("nan")
        first, last = starts[-1], marks[-1]
    return sum(e["tdur"] for e in events if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X"
               and e.get("name") == "ThreadControllerImpl::RunTask" and e.get("tdur")
               and first <= e["ts"] <= last) / 1000


@dataclass(frozen=True)
class KeyLatency:
    """One key press, from the browser's `EventLatency` trace event (categories `benchmark`):
    from the key's arrival in the browser to the presentation of the first frame after its
    handlers ran, in ms, and the part of it spent waiting for that frame to begin; `at`, when
    the key arrived, in µs of the browser's clock (on Linux the one `time.monotonic` reads);
    `stages`, the time of each of the slice's stages, in ms, by the trace's name for it."""

    at: float
    total: float
    frame_wait: float
    stages: Mapping[str, float] = field(default_factory=dict, compare=False)

    @property
    def painted(self) -> float:
        """The press's time to its paint, less the wait for the frame clock: what the step
        costs from the key to the screen. A step painted within one frame is one whose
        `painted` fits in a frame (16.7 ms at 60 Hz)."""
        return self.total - self.frame_wait


def key_latencies(trace: bytes) -> list[KeyLatency]:
    """Each key press (`KEY_PRESSED`) in the trace, in the order pressed. An `EventLatency`
    is an async slice, `b` and `e` under one id, with its stages as slices under the same
    id between them; an id is used again once its slice has ended."""
    open_slices: dict[tuple[Any, str], dict[str, Any]] = {}
    presses: list[KeyLatency] = []
    for e in sorted(events_of(trace), key=lambda e: e.get("ts", 0)):
        if "id2" not in e or "input" not in e.get("cat", "").split(","):
            continue
        key = (e["pid"], e["id2"].get("local"))
        if e["name"] == "EventLatency" and e["ph"] == "b":
            kind = e["args"].get("event_latency", {}).get("event_type")
            open_slices[key] = {"kind": kind, "ts": e["ts"], "stages": {}}
        elif e["name"] == "EventLatency" and e["ph"] == "e" and key in open_slices:
            press = open_slices.pop(key)
            if press["kind"] == "KEY_PRESSED":
                stages = {k: v for k, v in press["stages"].items() if not k.startswith("begun:")}
                presses.append(KeyLatency(press["ts"], (e["ts"] - press["ts"]) / 1000, stages.get(FRAME_WAIT, 0.0), stages))
        elif key in open_slices:
            stages = open_slices[key]["stages"]
            if e["ph"] == "b":
                stages[f"begun:{e['name']}"] = e["ts"]
            elif e["ph"] == "e" and f"begun:{e['name']}" in stages:
                stages[e["name"]] = (e["ts"] - stages[f"begun:{e['name']}"]) / 1000
    return sorted(presses, key=lambda p: p.at)
