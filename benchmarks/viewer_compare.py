"""The replay viewer of two trees side by side, interleaved: this tree and an earlier
revision, each served by its own process from the same stored games, loaded and stepped by
one browser, a load or a run of key presses at a time, the trees taking turns.

On a machine whose load moves from minute to minute, two benchmark runs one after the other
differ by more than most changes do; taking turns load by load puts both trees under the same
load. What is compared:

- the first board: from navigation start to the page's `replay:first-board` mark (drawn)
  and, where the page sets it, its `replay:first-board-painted` mark, cold (a new browser
  context per load);
- a step by key: from the key to the frame that showed it, less the wait for that frame to
  begin, from the browser's own trace (`chromium_trace.KeyLatency.painted`), arrow keys from
  the middle of the game as `viewer_replay.py` presses them.

    .venv/bin/python benchmarks/viewer_compare.py --base REV [--loads 30] [--presses 200]

REV is any git revision; it is unpacked with `git archive` into a temporary folder. Both
trees must store and serve games the same way (the games are stored by this tree).
"""

from __future__ import annotations

import argparse
import bisect
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.chromium_trace import FRAME_MS, key_latencies  # noqa: E402
from benchmarks.viewer_replay import CHROMIUM, CHROMIUM_ARGS, KEY_PAUSE_MS, long_game, p95, percentiles, ratio  # noqa: E402
from service.application import Caboose  # noqa: E402
from service.settings import RateLimits, Settings  # noqa: E402

# Each tree's server: waitress with 8 threads on loopback, as `viewer_replay.py` serves.
SERVE = """
import sys
from waitress.server import create_server
from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.settings import RateLimits, Settings
app = Caboose(Settings(db=sys.argv[1], rate_limits=RateLimits.every("1000000/minute")))
server = create_server(create_app(app, Lobby(app)), host="127.0.0.1", port=0, threads=8)
print(server.effective_port, flush=True)
server.run()
"""
GAMES = {"ticket_to_ride": (5, 1000), "age_of_steam": (6, 700)}
BLOCK = 20  # key presses on one tree before the other takes its turn


@contextmanager
def served(tree: Path, db: str) -> Iterator[str]:
    server = subprocess.Popen([sys.executable, "-c", SERVE, db], cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        yield f"http://127.0.0.1:{server.stdout.readline().strip()}"
    finally:
        server.terminate()
        server.wait()


def unpacked(revision: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def first_board(browser: Any, url: str) -> list[float | None]:
    """The first board's time drawn and painted (None where the tree's page sets no such mark)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    with page.expect_request(lambda r: "/events?" in r.url, timeout=60_000):
        page.goto(url, wait_until="commit")
    page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
    took: list[float | None] = page.evaluate(
        "() => ['replay:first-board', 'replay:first-board-painted'].map((m) => performance.getEntriesByName(m)[0]?.startTime ?? null)")
    context.close()
    return took


def key_presses(browser: Any, urls: dict[str, str], presses: int) -> dict[str, list[float]]:
    """`presses` arrow keys on each tree's page, `BLOCK` at a time, the trees taking turns,
    under one trace: each press's `painted` time, by tree."""
    pages = {}
    for tree, url in urls.items():
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.goto(url)
        page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
        page.wait_for_timeout(1000)
        page.evaluate("() => replay.go(Math.floor(replay.page.nav.last / 2))")
        page.evaluate("() => document.activeElement?.blur()")
        pages[tree] = page
    rng = random.Random(15)
    sent: list[tuple[float, str]] = []
    browser.start_tracing(categories=["benchmark"])
    for block in range(0, presses, BLOCK):
        for tree, page in pages.items():
            page.bring_to_front()
            for i in range(block, min(presses, block + BLOCK)):
                sent.append((time.monotonic() * 1e6, tree))
                page.keyboard.press("ArrowRight" if i % 40 < 30 else "ArrowLeft")
                page.wait_for_timeout(KEY_PAUSE_MS + rng.uniform(0, FRAME_MS))
    pressed = key_latencies(browser.stop_tracing())
    times = [at for at, _ in sent]
    out: dict[str, list[float]] = {tree: [] for tree in pages}
    for k in pressed:
        if k.at >= times[0]:
            out[sent[bisect.bisect_right(times, k.at) - 1][1]].append(k.painted)
    for page in pages.values():
        page.context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the git revision to compare this tree with")
    parser.add_argument("--loads", type=int, default=30)
    parser.add_argument("--presses", type=int, default=200)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        db = f"sqlite:///{tmp}/compare.sqlite"
        app = Caboose(Settings(db=db, rate_limits=RateLimits.every("1000000/minute")))
        games = {name: long_game(app, name, players, at_least)[0] for name, (players, at_least) in GAMES.items()}
        base = unpacked(args.base, Path(tmp) / "base")
        trees = {"base": base, "this": ROOT}
        bases = {tree: stack.enter_context(served(path, db)) for tree, path in trees.items()}
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, game_id in games.items():
            urls = {tree: f"{url}/games/{game_id}/replay" for tree, url in bases.items()}
            loads: dict[str, list[float]] = {tree: [] for tree in trees}
            painted: dict[str, list[float]] = {tree: [] for tree in trees}
            for load in range(args.loads):
                order = list(trees) if load % 2 == 0 else list(reversed(trees))
                for tree in order:
                    drawn, shown = first_board(browser, urls[tree] + ("?at=1" if load % 4 >= 2 else ""))
                    loads[tree].append(drawn)
                    if shown is not None:
                        painted[tree].append(shown)
            keys = key_presses(browser, urls, args.presses)
            print(f"# {name} ({args.base} against this tree, {args.loads} loads and {args.presses} key presses each, interleaved)")
            for tree in trees:
                frame = [b - a for a, b in zip(loads[tree], painted[tree], strict=True)] if painted[tree] else []
                shown = f", painted {percentiles(painted[tree])} (its frame {percentiles(frame)})" if painted[tree] else ""
                print(f"  {tree:4s} first board drawn {percentiles(loads[tree])}{shown}; key to screen {percentiles(keys[tree])}, "
                      f"{sum(v > FRAME_MS for v in keys[tree])} of {len(keys[tree])} over one frame")
            median = {tree: statistics.median(loads[tree]) for tree in trees}
            print(f"  this : base, first board p50 {ratio(median['this'], median['base'])}, "
                  f"p95 {ratio(p95(loads['this']), p95(loads['base']))}; key to screen p95 {ratio(p95(keys['this']), p95(keys['base']))}",
                  flush=True)
        browser.close()


if __name__ == "__main__":
    main()
