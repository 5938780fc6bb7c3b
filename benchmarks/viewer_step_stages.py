"""Where a step's time goes in the replay viewer: the arrow-key presses of the viewer
benchmark (`viewer_replay.py`, the same games, pace and baseline press), each split into the
stages of the browser's own `EventLatency` trace event, with the steps that scrolled the event
list apart from the others; then, under a second trace, what the renderer's main thread, the
raster workers and the display compositor spent a step on.

    .venv/bin/python benchmarks/viewer_step_stages.py [--presses 300] [--work-presses 40]

It prints, per game and per kind of press (a step, a step that scrolled the list, the baseline
press that changes only the event's number): the presses' time from the key to the screen less
the wait for the frame to begin (p50, p95, how many over one frame), and the mean and p95 of the
stages that cost the most; then the mean per step of the main thread's style, layout and paint,
raster and the display compositor's draw. Run it in two trees to see what a change moved.
"""

from __future__ import annotations

import argparse
import bisect
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.chromium_trace import FRAME_MS, KeyLatency, events_of, key_latencies
from benchmarks.viewer_replay import BASELINE_KEY, CHROMIUM, CHROMIUM_ARGS, KEY_PAUSE_MS, KEYS_OBSERVE_JS, long_game, p95, serving
from service.application import Caboose
from service.settings import RateLimits, Settings

# The stages a step's time is mostly spent in (the rest are each well under a millisecond).
STAGES = ("RendererCompositorToMain", "RendererMainProcessing", "RendererMainFinishedToCommit",
          "SendBeginMainFrameToCommit", "EndCommitToActivation", "StartDrawToSwapStart",
          "SubmitCompositorFrameToPresentationCompositorFrame")
# Trace events of the work a step costs, by what they are in a step.
WORK = {"UpdateLayoutTree": "style", "Layout": "layout", "Paint": "paint", "RasterTask": "raster",
        "DirectRenderer::DrawRenderPass": "draw"}
# Counts the key presses and notes those on which the event list scrolled itself.
SCROLLS_JS = """() => {
    window.keysDown = 0;
    window.listScrolledAt = [];
    document.addEventListener('keydown', () => window.keysDown++, {capture: true});
    const list = replay.page.list;
    const keep = list.keepInSight.bind(list);
    list.keepInSight = () => {
        const before = list.seen;
        keep();
        if (list.seen !== before) window.listScrolledAt.push(window.keysDown);
    };
}"""
ARROWS = ("ArrowRight", "ArrowLeft")


def arrow(i: int) -> str:
    return ARROWS[0] if i % 40 < 30 else ARROWS[1]  # 30 steps forward, 10 back, as the benchmark


def open_replay(browser: Any, url: str) -> Any:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
    page.wait_for_timeout(1000)
    page.evaluate("() => replay.go(Math.floor(replay.page.nav.last / 2))")
    return page


def pressed_by_kind(browser: Any, page: Any, presses: int) -> dict[str, list[KeyLatency]]:
    """Each arrow press followed by a baseline press, as `viewer_replay.key_steps` presses them."""
    page.evaluate(KEYS_OBSERVE_JS)
    page.evaluate(SCROLLS_JS)
    rng = random.Random(15)
    sent: list[float] = []
    browser.start_tracing(page=page, categories=["benchmark"])
    for i in range(presses):
        for key in (arrow(i), BASELINE_KEY):
            sent.append(time.monotonic() * 1e6)
            page.keyboard.press(key)
            page.wait_for_timeout(KEY_PAUSE_MS + rng.uniform(0, FRAME_MS))
    page.wait_for_timeout(300)
    traced = [k for k in key_latencies(browser.stop_tracing()) if k.at >= sent[0]]
    scrolled = set(page.evaluate("() => window.listScrolledAt"))
    kinds: dict[str, list[KeyLatency]] = {"step": [], "step that scrolled the list": [], "baseline press": []}
    for press in traced:
        number = bisect.bisect_right(sent, press.at)  # 1-based: the last key sent before it arrived
        kind = "baseline press" if number % 2 == 0 else "step that scrolled the list" if number in scrolled else "step"
        kinds[kind].append(press)
    return kinds


def work_per_step(browser: Any, page: Any, presses: int) -> dict[str, float]:
    """The mean time per arrow press of each kind of work in `WORK`, from a trace of its own
    (these categories slow the browser, so no latency is taken under them)."""
    browser.start_tracing(page=page, categories=["devtools.timeline", "cc", "viz"])
    for i in range(presses):
        page.keyboard.press(arrow(i))
        page.wait_for_timeout(2 * KEY_PAUSE_MS)
    spent: Counter[str] = Counter()
    for e in events_of(browser.stop_tracing()):
        if e.get("ph") == "X" and e.get("name") in WORK:
            spent[WORK[e["name"]]] += e.get("dur", 0) / 1000
    return {kind: round(spent[kind] / presses, 2) for kind in WORK.values()}


def report(kind: str, presses: list[KeyLatency]) -> str:
    painted = sorted(p.painted for p in presses)
    lines = [f"  {kind} ({len(presses)}): key to screen less the frame's wait p50 {statistics.median(painted):.1f} / "
             f"p95 {p95(painted):.1f} ms, {sum(v > FRAME_MS for v in painted)} over one frame"]
    for stage in STAGES:
        values = [p.stages.get(stage, 0.0) for p in presses]
        lines.append(f"    {stage:<52} mean {statistics.mean(values):5.2f}  p95 {p95(values):5.2f} ms")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--work-presses", type=int, default=40)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        app = Caboose(Settings(db=f"sqlite:///{tmp}/bench.sqlite", rate_limits=RateLimits.every("1000000/minute")))
        games = {"ticket_to_ride": long_game(app, "ticket_to_ride", 5, 1000),
                 "age_of_steam": long_game(app, "age_of_steam", 6, 700)}
        with serving(app) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, (game_id, events) in games.items():
                page = open_replay(browser, f"{base}/games/{game_id}/replay")
                print(f"# {name} ({events} events)")
                for kind, presses in pressed_by_kind(browser, page, args.presses).items():
                    if presses:
                        print(report(kind, presses))
                work = work_per_step(browser, page, args.work_presses)
                print("  work per step: " + ", ".join(f"{kind} {ms} ms" for kind, ms in work.items()), flush=True)
                page.context.close()
            browser.close()


if __name__ == "__main__":
    main()
