"""A game played at a table, on a Thai or a Traditional Chinese page (real Chromium over real
HTTP): every outcome the table was asked for and every one entered — a card turned up, a hand
dealt, tickets drawn, a deck's cards revealed, dice rolled, a cube from the bag — reads in the
page's language, for each game a table can play. The referee's page is read (it sees what a
secret draw was) as well as the public's; each game is its score sheet in tests/sheets/,
entered as the referee wrote it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cli.transcribe import Transcription, read_sheet_file
from domain.core.transcription import without_comment
from tests.browser.english import english_on
from tests.browser.support import Site

SHEETS = Path(__file__).resolve().parents[1] / "sheets"
TRANSLATED = ["th", "zh-TW"]
# Each game's sheet: its players and its options.
GAMES = {
    "age_of_steam": (["Ann", "Bob", "Cat"], {}),
    "ticket_to_ride": (["Ann", "Bob", "Cat"], {}),
    "railway_boom": (["Ann", "Ben", "Cho"], {"first_game": False}),
    "toot_toot": (["Ann", "Ben", "Cho"], {}),
}
OUTCOMES = {"OutcomeAwaited", "OutcomeEntered"}


def asked(record: dict[str, Any]) -> str:
    """What an outcome record says the table was asked for."""
    data = record["data"]
    return str(data["what"] if record["kind"] == "OutcomeEntered" else data["needed"]["what"])


@pytest.fixture(scope="module")
def transcribed(site: Site) -> dict[str, tuple[str, str, list[int]]]:
    """Each game opened as laid out at the table and its sheet entered: its id,
    its referee's token, and the versions of its outcome requests and entries."""
    out = {}
    for game, (names, options) in GAMES.items():
        observed = json.loads((SHEETS / f"{game}.observed.json").read_text(encoding="utf-8"))
        game_id, issued = site.lobby.open_game(game, list(names), options, observed=observed)
        lines = [line for line in (SHEETS / f"{game}.txt").read_text(encoding="utf-8").splitlines() if without_comment(line)]
        read_sheet_file(Transcription(site.app, game_id, "table"), lines, io.StringIO())
        # The first two of each kind of request and of entry (a hand's draw, then a card's).
        versions: list[int] = []
        seen: dict[tuple[str, str], int] = {}
        for record in site.app.records(game_id):
            if record["kind"] in OUTCOMES:
                key = (record["kind"], asked(record))
                seen[key] = seen.get(key, 0) + 1
                if seen[key] <= 2:
                    versions.append(record["version"])
        out[game] = (game_id, issued.referee_token, versions)
    return out


def outcome_english(page: Any, versions: list[int]) -> dict[str, str]:
    """The English met in the sentences of the outcome rows, each stepped to."""
    left: dict[str, str] = {}
    for version in versions:
        page.evaluate("(v) => replay.go(v)", version)
        page.wait_for_function(
            f"() => (document.querySelector('#current-event')?.textContent || '').startsWith('{version}. ')", timeout=15_000
        )
        said = page.text_content("#current-event") or ""
        left.update({word: text for word, text in english_on(page).items() if text and text in said})
    return left


@pytest.mark.parametrize("audience", ["public", "referee"])
@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_outcomes_entered_at_a_table_read_in_the_pages_language(
    site: Site, transcribed: dict[str, tuple[str, str, list[int]]], reader: Any, game: str, language: str, audience: str
) -> None:
    game_id, referee, versions = transcribed[game]
    # The sheet's opening asks the table for every kind of outcome the game has.
    kinds = {asked(r) for r in site.app.records(game_id) if r["kind"] in OUTCOMES}
    assert len(kinds) >= 3, kinds
    query = f"?token={referee}" if audience == "referee" else ""
    page = reader(language, f"{site.base}/games/{game_id}/replay{query}")
    assert outcome_english(page, versions) == {}
    assert not page.errors, page.errors


def test_the_look_out_finds_the_games_english_on_english_pages(
    site: Site, transcribed: dict[str, tuple[str, str, list[int]]], reader: Any
) -> None:
    for game, (game_id, _, versions) in transcribed.items():
        page = reader("en", f"{site.base}/games/{game_id}/replay")
        assert len(outcome_english(page, versions)) >= 3, game
