"""Replay viewer benchmark: open a ~1,000-event game's replay in headless Chromium and
measure what issue 6 sets targets for.

- time to first board: from navigation start to the first board drawn (the page's
  `replay:first-board` mark), cold browser cache, median of several loads;
- each step: `replay.go(v)` until that version's board is drawn, for adjacent steps (next
  and previous) and for jumps to random events (which may fetch a chunk of views first);
- the page's own transfer before game data: the HTML, CSS and JS modules (and, apart, the
  static board map), as encoded on the wire.

    .venv/bin/python benchmarks/viewer_replay.py [--loads 5] [--steps 300] [--jumps 60]

Needs Debian's `chromium` (/usr/bin/chromium) and the `playwright` Python package; the
server is waitress with 8 threads on loopback, as `caboose serve` runs it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from waitress.server import create_server

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
    return {"p50": round(statistics.median(ordered), 1), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
            "max": round(ordered[-1], 1)}


def measure(base: str, game_id: str, events: int, loads: int, steps: int, jumps: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    url = f"{base}/games/{game_id}/replay"
    out: dict[str, Any] = {"events": events}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        first: list[float] = []
        ready: list[float] = []
        transfer: dict[str, int] = {}
        for load in range(loads):
            context = browser.new_context(viewport={"width": 1400, "height": 1000})  # a cold cache each time
            page = context.new_page()
            page.goto(url + ("?at=1" if load % 2 else ""))
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
            first.append(page.evaluate("() => performance.getEntriesByName('replay:first-board')[0].startTime"))
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
                steps_run = page.evaluate(STEPS_JS, {"count": steps})
                jumps_run = page.evaluate(JUMPS_JS, {"count": jumps})
                out["adjacent_step_ms"] = {"drawn": percentiles(steps_run["drawn"]),
                                           "painted": percentiles(steps_run["painted"])}
                out["jump_ms"] = {"drawn": percentiles(jumps_run["drawn"]), "painted": percentiles(jumps_run["painted"])}
            context.close()
        browser.close()
    out["first_board_ms"] = {"median": round(statistics.median(first), 1), "max": round(max(first), 1)}
    out["all_loaded_ms"] = {"median": round(statistics.median(ready), 1)}
    out["transfer_bytes"] = transfer
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5)
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
                result = measure(base, game_id, events, args.loads, args.steps, args.jumps)
                print(json.dumps({"game": name, **result}), flush=True)


if __name__ == "__main__":
    main()
