"""A replay viewer's journey, from the README's run command: `caboose serve --demo` started as
a person starts it (a process of its own, a SQLite file, a port), the finished games found
through the API's listing, and each game's finished demo stepped in a real browser over real
HTTP — in English, Thai and Traditional Chinese, at 1400x900 and on a 390x844 phone: the first
board, a step forward and back by the keys (buttons on the phone), the first and the last event,
a jump by the slider and by the turn list. The board and the event number follow each step,
the event shown is the event list's, every word is in the page's language (no English beyond
the names the page marks as proper names, and the players' names) and no seat is called by its
number where its player's name belongs. A screenshot of each game, language and width is kept
under test-artifacts/browser/journey/."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.english import english_on
from tests.browser.support import PHONE, WIDE

LANGUAGES = ["en", "th", "zh-TW"]
WIDTHS = {"1400": WIDE, "390": PHONE}
GAMES = ["ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"]
START_WITHIN = 600  # seconds for the demo to play its games on a slow machine and the server to answer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """`caboose serve --demo` on a free port: its address and its finished game of each game."""
    folder = tmp_path_factory.mktemp("journey")
    port = free_port()
    caboose = Path(sys.executable).parent / "caboose"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CABOOSE_")}
    log = (folder / "serve.log").open("w")
    server = subprocess.Popen([str(caboose), "serve", "--demo", "--port", str(port), "--db", f"sqlite:///{folder}/caboose.sqlite"],
                              cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_WITHIN
        while True:
            if server.poll() is not None:
                pytest.fail(f"`caboose serve --demo` ended ({server.returncode}): {(folder / 'serve.log').read_text()[-2000:]}")
            try:
                listed = get_json(f"{base}/api/v1/games?status=finished&limit=50")["games"]
                break
            except urllib.error.HTTPError as error:  # it answers, and refuses: no waiting that out
                pytest.fail(f"the game listing answered {error.code}: {error.read()[:300]!r}")
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"`caboose serve --demo` did not answer within {START_WITHIN} s")
                time.sleep(1)
        finished = {entry["game"]: entry["game_id"] for entry in listed}
        assert set(GAMES) <= set(finished), finished
        yield base, finished
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def shown(page: Any) -> int:
    return int(page.get_attribute("#board", "data-version"))


def wait_shown(page: Any, version: int) -> None:
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{version}'", timeout=15_000)


def seat_numbers(page: Any) -> re.Pattern[str]:
    """How this page would call a seat by its number ("seat 2", "ที่นั่ง 2"), from its own catalogue."""
    said = page.evaluate("() => JSON.parse(document.getElementById('i18n').textContent).messages['seat {seat}'] || 'seat {seat}'")
    return re.compile(re.escape(said).replace(re.escape("{seat}"), r"\d+"))


def read_well(page: Any, language: str) -> None:
    """The event shown is the list's, in the page's language, and no seat is named by its number."""
    version = shown(page)
    current = page.text_content("#current-event") or ""
    # The row's sentence (its notation and tag aside) is the sentence shown for the event.
    row = page.eval_on_selector(f'#event-list li[data-version="{version}"] .text', """t => [...t.childNodes]
        .filter((n) => !(n.classList && (n.classList.contains('notation') || n.classList.contains('tag'))))
        .map((n) => n.textContent).join('')""")
    assert current.startswith(f"{version}. ") and row.strip() and current.endswith(row.strip()), (current, row)
    text = page.evaluate("() => document.body.innerText")
    numbered = seat_numbers(page).findall(text)
    assert not numbered, numbered[:5]
    if language != "en":
        assert english_on(page) == {}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_viewer_steps_a_finished_game(demo: tuple[str, dict[str, str]], reader: Any, artifacts: Path,
                                        game: str, language: str, width: str) -> None:
    base, finished = demo
    page = reader(language, f"{base}/games/{finished[game]}/replay", WIDTHS[width])
    phone = width == "390"
    assert page.evaluate("() => document.documentElement.lang") == language
    last = shown(page)
    assert last > 20 and page.get_attribute("#status", "data-status") == "finished"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
    names = page.evaluate("() => replay.page.names")
    assert names and all(names), names  # the players' names, shown wherever a seat is meant
    read_well(page, language)

    def press(key: str, button: str) -> None:
        if phone:
            page.tap(button)
        else:
            page.keyboard.press(key)

    press("Home", "#first")
    wait_shown(page, 1)
    for expected in (2, 3, 4):
        press("ArrowRight", "#next")
        wait_shown(page, expected)
    press("ArrowLeft", "#prev")
    wait_shown(page, 3)
    read_well(page, language)
    # The slider, half way along: the board follows to about the middle of the game.
    box = page.locator("#slider").bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(f"() => Math.abs(Number(document.querySelector('#board').dataset.version) - {last / 2}) < {last / 8}",
                           timeout=15_000)
    assert page.input_value("#slider") == str(shown(page))
    read_well(page, language)
    # A turn chosen from the list: the board goes to that turn's first event.
    turns = page.eval_on_selector_all("#turn option", "os => os.map(o => o.value).filter(Boolean)")
    assert len(turns) > 2
    page.select_option("#turn", turns[len(turns) // 3])
    wait_shown(page, int(turns[len(turns) // 3]))
    read_well(page, language)
    press("End", "#last")
    wait_shown(page, last)
    read_well(page, language)
    (artifacts / "journey").mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "journey" / f"{game}-{language}-{width}.png"))
    assert not page.errors, page.errors
