"""Replay viewer benchmark: open a ~1,000-event game's replay in headless Chromium and
measure what issues 6 and 15 set targets for, each figure beside a baseline measured in the
same run on the same machine (the machine's load moves both alike):

- time to first board: from navigation start to the first board drawn (the page's
  `replay:first-board` mark, set once its elements are in the page) and painted (its
  `replay:first-board-painted` mark, set once the frame holding it has been laid out and
  painted: what a visitor waits for, and the figure issue 15's target is held to), cold
  browser cache, p50 / p95 / max of several loads, with nothing of Playwright's run in the
  page before that mark; baselines:
  an empty page's first paint from the same server (cold), and a raw `fetch` of the data the
  first board waits for, as the page's boot.js asks for it (the one view at the version
  shown, the summary and the board map; until December 2026 this baseline asked for the four
  views ending at the last version, which the page does not);
- each step: `replay.go(v)` until that version's board is drawn, then until the next frame is
  painted, for adjacent steps (next and previous) and for jumps to random events (which may
  fetch a chunk of views first); baseline: an empty frame, the same wait with no step, on the
  same page (the floor a step's "painted" time cannot go below);
- each step by the keyboard, "painted within one frame": arrow keys pressed through the
  browser's input path, a person's pace apart (40 ms and up to a frame more, at random, so
  that presses fall anywhere in a frame), each followed by a baseline press whose handler
  changes only the event's number. For each press, from the browser's own trace (its
  `EventLatency`, not rounded): the time from the key's arrival to the presentation of the
  frame that showed it, and that time less the wait for the frame to begin (the frame clock
  runs at 60 Hz; no page can shorten that wait). A step is painted within one frame when the
  latter is at most 16.7 ms; its p95 is the figure issue 15 sets. Also counted: the presses
  the page's Event Timing reports later than one frame (rounded to 8 ms, so only those of
  20 ms and more). Until December 2026 only that count was taken, with presses exactly 50 ms
  (three frames) apart, so each run's presses fell at one phase of the frame clock;
- the page's own transfer before game data: the HTML, CSS and JS modules (and, apart, the
  static board map), as encoded on the wire;
- the renderer main thread's CPU time from navigation to the first board, from a trace of
  three more cold loads (thread time, which other load on the machine inflates less).

    .venv/bin/python benchmarks/viewer_replay.py [--loads 10] [--steps 300] [--jumps 60]

Needs Debian's `chromium` (/usr/bin/chromium) and the `playwright` Python package; the
server is waitress with 8 threads on loopback, as `caboose serve` runs it.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from waitress.server import create_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.chromium_trace import FRAME_MS, key_latencies, main_thread_cpu
from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from service.simulation import game_seed, play_one

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


# Each step is timed twice: until the board of that version is in the DOM (`drawn`), and
# until the next frame has been produced (`painted`, which includes waiting for that frame:
# up to 16.7 ms at 60 Hz, and the style, layout and paint of the step).
_TIMED = """
    const drawn = [], painted = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    for (const v of versions) {
        const t0 = performance.now();
        await replay.go(v);
        drawn.push(performance.now() - t0);
        await frame();
        painted.push(performance.now() - t0);
    }
    return {drawn, painted};
"""
STEPS_JS = """async ({count}) => {
    // From the middle: 30 steps forward, 10 back, again and again (adjacent events).
    let v = Math.floor(replay.page.nav.last / 2);
    await replay.go(v);
    const versions = [];
    for (let i = 0; i < count; i++) versions.push(v += (i % 40 < 30) ? 1 : -1);
""" + _TIMED + "}"
EMPTY_FRAMES_JS = """async ({count}) => {
    // The baseline of a step: the same wait for the next frame, with nothing changed.
    const painted = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    await frame();
    for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await frame();
        painted.push(performance.now() - t0);
    }
    return painted;
}"""
RAW_FETCH_JS = """async ({game, version}) => {
    // The baseline of the first board: the data it waits for, fetched raw from a page of the
    // same origin, in parallel: what the page's boot.js asks for (the one view at the version
    // shown, the summary, the board map).
    const t0 = performance.now();
    const base = `/api/v1/games/${game}`;
    await Promise.all([`/games/${game}/replay/views?from=${version}&to=${version}`, base,
                       `/replay/maps/${document.body.dataset.map}.json`]
        .map((url) => fetch(url, {cache: "no-store"}).then((r) => r.text())));
    return performance.now() - t0;
}"""
JUMPS_JS = """async ({count}) => {
    // Random events anywhere in the game, a pause of 300 ms between jumps.
    let seed = 7;
    const versions = [];
    for (let i = 0; i < count; i++) versions.push(1 + (seed = (seed * 48271) % 2147483647) % replay.page.nav.last);
    const drawn = [], painted = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    for (const v of versions) {
        await new Promise((r) => setTimeout(r, 300));
        const t0 = performance.now();
        await replay.go(v);
        drawn.push(performance.now() - t0);
        await frame();
        painted.push(performance.now() - t0);
    }
    return {drawn, painted};
}"""


KEYS_OBSERVE_JS = """() => {
    // Each key press's Event Timing entry: from the key's arrival to the next frame painted
    // after its handlers ran (rounded to 8 ms; only presses of 16 ms and more are reported),
    // by the key pressed.
    window.keyTimings = [];
    const pressed = new Map();
    document.addEventListener('keydown', (e) => pressed.set(e.timeStamp, e.key), {capture: true});
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name === 'keydown') window.keyTimings.push([pressed.get(e.startTime), e.duration]);
    }).observe({type: 'event', durationThreshold: 16, buffered: false});
    // The baseline of a step by key: a press that changes the event's number above the board
    // and nothing else, the least a step changes on the screen.
    const position = document.getElementById('position');
    let count = 0;
    document.addEventListener('keydown', (e) => { if (e.key === 'x') position.textContent = `x ${++count}`; });
    document.activeElement?.blur();
}"""
BASELINE_KEY = "x"
KEY_PAUSE_MS = 40  # and up to a frame more, at random: a person's presses fall anywhere in a frame


def key_steps(browser: Any, page: Any, count: int) -> dict[str, Any]:
    """`count` arrow-key presses from the middle of the game (30 right, 10 left, again and
    again), each through the browser's input path, each followed by a baseline press (the
    event's number changed, nothing else): from the browser's own trace, each press's time
    from the key to the frame that showed it, with and without the wait for that frame to
    begin; and the presses the page's Event Timing (rounded to 8 ms) reports as later than
    one frame."""
    rng = random.Random(15)
    page.evaluate("() => replay.go(Math.floor(replay.page.nav.last / 2))")
    page.evaluate(KEYS_OBSERVE_JS)
    sent: list[tuple[float, str]] = []  # when each key was sent, by the clock the trace keeps
    browser.start_tracing(page=page, categories=["benchmark"])
    for i in range(count):
        for key in ("ArrowRight" if i % 40 < 30 else "ArrowLeft", BASELINE_KEY):
            sent.append((time.monotonic() * 1e6, key))
            page.keyboard.press(key)
            page.wait_for_timeout(KEY_PAUSE_MS + rng.uniform(0, FRAME_MS))
    page.wait_for_timeout(300)
    pressed = key_latencies(browser.stop_tracing())
    # Each press the browser traced, by the key sent last before it arrived.
    times = [at for at, _ in sent]
    keyed = [(sent[bisect.bisect_right(times, k.at) - 1][1], k) for k in pressed if k.at >= times[0]]
    steps = [k for key, k in keyed if key != BASELINE_KEY]
    baseline = [k for key, k in keyed if key == BASELINE_KEY]
    if len(steps) != count or len(baseline) != count:
        raise RuntimeError(f"{len(steps)} steps and {len(baseline)} baseline presses traced, of {count} each")
    timings: list[list[Any]] = page.evaluate("() => window.keyTimings")
    # Reported durations are multiples of 8 ms: 16 is under 20 ms, a frame and its rounding.
    late = [d for key, d in timings if key != BASELINE_KEY and d > FRAME_MS]
    painted = [k.painted for k in steps]
    base = [k.painted for k in baseline]
    return {"presses": count, "painted_ms": percentiles(painted), "baseline_painted_ms": percentiles(base),
            "painted_p95_to_baseline_p95": ratio(p95(painted), p95(base)),
            "painted_over_one_frame": sum(v > FRAME_MS for v in painted), "painted_p95_within_one_frame": p95(painted) <= FRAME_MS,
            "latency_ms": percentiles([k.total for k in steps]), "baseline_latency_ms": percentiles([k.total for k in baseline]),
            "frame_wait_ms": percentiles([k.frame_wait for k in steps]),
            "event_timing_over_one_frame": len(late), "event_timing_over_two_frames": sum(d > 2 * FRAME_MS for d in late),
            "baseline_event_timing_over_one_frame": sum(key == BASELINE_KEY and d > FRAME_MS for key, d in timings)}


@contextmanager
def serving(app: Caboose) -> Iterator[str]:
    server = create_server(create_app(app, Lobby(app)), host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()


def long_game(app: Caboose, game: str, players: int, at_least: int) -> tuple[str, int]:
    """The first seeded random game of `game` with at least `at_least` events (or the longest of a few)."""
    best: tuple[str, int] = ("", 0)
    for index in range(12):
        playout = play_one(app, game, players, game_seed(6, index), random.Random(index), check=False)
        if playout.events > best[1]:
            best = (playout.game_id, playout.events)
        if playout.events >= at_least:
            break
    return best


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered), 1), "p95": round(p95(ordered), 1), "max": round(ordered[-1], 1)}


def p95(values: list[float]) -> float:
    """The nearest-rank 95th percentile: of 10 loads the largest, of 20 the second largest."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def ratio(value: float, baseline: float) -> float:
    return round(value / baseline, 2) if baseline else float("nan")


def measure(base: str, game_id: str, events: int, loads: int, steps: int, jumps: int, board_name: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    url = f"{base}/games/{game_id}/replay"
    out: dict[str, Any] = {"events": events}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        first: list[float] = []
        first_painted: list[float] = []
        ready: list[float] = []
        empty: list[float] = []
        raw: list[float] = []
        transfer: dict[str, int] = {}
        game = url.split("/games/")[1].split("/")[0]
        for load in range(loads):
            # Baselines, cold like the replay's loads: an empty page of the same server, and
            # the first board's data fetched raw from it.
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            page.goto(f"{base}/games/no-such-game/replay")
            page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
            empty.append(page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0].startTime"))
            page.evaluate("(map) => { document.body.dataset.map = map; }", board_name)
            raw.append(page.evaluate(RAW_FETCH_JS, {"game": game, "version": 1 if load % 2 else events}))
            context.close()
            context = browser.new_context(viewport={"width": 1400, "height": 1000})  # a cold cache each time
            page = context.new_page()
            # Nothing of Playwright runs in the page until the first board is drawn: its first
            # evaluation compiles its injected script on the page's main thread (about 20 ms,
            # seen in traces), which no visitor's page pays. The events are asked for right
            # after the first board (main.js), and a network event is seen from outside.
            with page.expect_request(lambda r: "/events?" in r.url, timeout=60_000):
                page.goto(url + ("?at=1" if load % 2 else ""), wait_until="commit")
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
            drawn, painted = page.evaluate(
                "() => ['replay:first-board', 'replay:first-board-painted'].map((m) => performance.getEntriesByName(m)[0].startTime)")
            first.append(drawn)
            first_painted.append(painted)
            ready.append(page.evaluate("() => performance.now()"))
            if load == 0:
                transfer = page.evaluate("""() => {
                    const sizes = {page: 0, board_map: 0, game_data: 0};
                    const nav = performance.getEntriesByType('navigation')[0];
                    sizes.page += nav.encodedBodySize;
                    for (const r of performance.getEntriesByType('resource')) {
                        const path = new URL(r.name).pathname;
                        const size = r.encodedBodySize;
                        if (path.startsWith('/replay/static/')) sizes.page += size;
                        else if (path.startsWith('/replay/maps/')) sizes.board_map += size;
                        else sizes.game_data += size;
                    }
                    return sizes;
                }""")
                page.wait_for_timeout(1000)  # a person looks before stepping; the first chunk's rest arrives
                frames_run = page.evaluate(EMPTY_FRAMES_JS, {"count": steps})
                browser.start_tracing(page=page, categories=["toplevel"])
                steps_run = page.evaluate(STEPS_JS, {"count": steps})
                out["step_main_thread_cpu_ms"] = round(main_thread_cpu(browser.stop_tracing()) / steps, 2)
                jumps_run = page.evaluate(JUMPS_JS, {"count": jumps})
                out["adjacent_step_ms"] = {"drawn": percentiles(steps_run["drawn"]),
                                           "painted": percentiles(steps_run["painted"])}
                out["empty_frame_ms"] = percentiles(frames_run)
                out["step_painted_p95_to_empty_frame_p95"] = ratio(p95(steps_run["painted"]), p95(frames_run))
                out["jump_ms"] = {"drawn": percentiles(jumps_run["drawn"]), "painted": percentiles(jumps_run["painted"])}
                out["key_steps"] = key_steps(browser, page, steps)
            context.close()
        # Three more cold loads under a trace, for the first board's main-thread CPU (traced
        # loads run slower, so they are not among the timed ones above).
        cpu: list[float] = []
        for load in range(3):
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            page.goto("about:blank")
            browser.start_tracing(page=page, categories=["toplevel", "blink.user_timing"])
            with page.expect_request(lambda r: "/events?" in r.url, timeout=60_000):
                page.goto(url + ("?at=1" if load % 2 else ""), wait_until="commit")
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
            cpu.append(main_thread_cpu(browser.stop_tracing(), since="/replay", until="replay:first-board"))
            context.close()
        browser.close()
    out["first_board_main_thread_cpu_ms"] = round(statistics.mean(cpu), 1)
    out["first_board_ms"] = percentiles(first)
    out["first_board_painted_ms"] = percentiles(first_painted)
    out["first_board_painted_each_ms"] = [round(v, 1) for v in first_painted]
    out["empty_page_first_paint_ms"] = percentiles(empty)
    out["raw_fetch_first_board_data_ms"] = percentiles(raw)
    out["first_board_painted_p95_to_empty_page_p95"] = ratio(p95(first_painted), p95(empty))
    out["first_board_p95_to_raw_fetch_p95"] = ratio(p95(first), p95(raw))
    out["all_loaded_ms"] = {"median": round(statistics.median(ready), 1)}
    out["transfer_bytes"] = transfer
    return out


def summary(name: str, r: dict[str, Any]) -> str:
    step, frame, first, painted = r["adjacent_step_ms"]["painted"], r["empty_frame_ms"], r["first_board_ms"], r["first_board_painted_ms"]
    keys = r["key_steps"]
    return (f"# {name} ({r['events']} events): first board painted p50 {painted['p50']} / p95 {painted['p95']} ms "
            f"(empty page first paint p95 {r['empty_page_first_paint_ms']['p95']} ms, "
            f"ratio {r['first_board_painted_p95_to_empty_page_p95']}), "
            f"drawn p50 {first['p50']} / p95 {first['p95']} ms (raw fetch of its data p95 {r['raw_fetch_first_board_data_ms']['p95']} ms, "
            f"ratio {r['first_board_p95_to_raw_fetch_p95']}); "
            f"step painted p50 {step['p50']} / p95 {step['p95']} ms (empty frame p95 {frame['p95']} ms, "
            f"ratio {r['step_painted_p95_to_empty_frame_p95']}); main-thread CPU per step {r['step_main_thread_cpu_ms']} ms; "
            f"arrow-key step from the key to the screen, less the wait for its frame to begin, p50 {keys['painted_ms']['p50']} / "
            f"p95 {keys['painted_ms']['p95']} ms (baseline press p95 {keys['baseline_painted_ms']['p95']} ms, ratio "
            f"{keys['painted_p95_to_baseline_p95']}), {keys['painted_over_one_frame']} of {keys['presses']} over one frame; "
            f"with that wait p95 {keys['latency_ms']['p95']} ms; Event Timing (8 ms rounding): "
            f"{keys['event_timing_over_one_frame']} of {keys['presses']} later than one frame; "
            f"main-thread CPU before the first board {r['first_board_main_thread_cpu_ms']} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--jumps", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = Caboose(Settings(db=f"sqlite:///{tmp}/bench.sqlite", rate_limits=RateLimits.every("1000000/minute")))
        started = time.perf_counter()
        games = {"ticket_to_ride": long_game(app, "ticket_to_ride", 5, 1000),
                 "age_of_steam": long_game(app, "age_of_steam", 6, 700)}
        print(f"# games stored in {time.perf_counter() - started:.1f} s", flush=True)
        with serving(app) as base:
            for name, (game_id, events) in games.items():
                result = measure(base, game_id, events, args.loads, args.steps, args.jumps, name)
                print(json.dumps({"game": name, **result}), flush=True)
                print(summary(name, result), flush=True)


if __name__ == "__main__":
    main()
