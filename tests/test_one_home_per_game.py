"""One home per game: outside its own package (`domain/<game>/`), no Python module, template
or page script of the service, the read models or the command line names a shipped game, by
its id or its title. Every such place reads the game contract (`docs/adding-a-game.md`); a
game's board renderer is its package's own `renderer.js`, served by the viewer from there."""

from __future__ import annotations

import re
from pathlib import Path

from domain import games

ROOT = Path(__file__).resolve().parents[1]
PLACES = ("service", "projections", "cli")
SUFFIXES = (".py", ".html", ".cfg")
SCRIPTS = ("service/pages/static/js", "service/viewer/static/js", "service/viewer/static/renderers")


def shipped() -> dict[str, str]:
    """Each game of `domain/games.py`: id -> its English title."""
    return {rules.name: rules.title for rules in games.GAMES}


def named(text: str, words: dict[str, str]) -> list[str]:
    found = []
    for name, title in words.items():
        for word in (name, title):
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text):
                found.append(word)
    return found


def test_no_module_outside_a_games_package_names_a_game() -> None:
    words = shipped()
    assert set(words) >= {"ticket_to_ride", "toot_toot"} and all(words.values())
    files = [path for place in PLACES for path in (ROOT / place).rglob("*") if path.suffix in SUFFIXES]
    files += [path for folder in SCRIPTS for path in (ROOT / folder).glob("*.js")]
    offenders = []
    for path in sorted(files):
        # Comments name games as examples; only what runs or is shown counts.
        code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith(("#", "//")))
        offenders += [f"{path.relative_to(ROOT)}: {word}" for word in named(code, words)]
    assert offenders == []


def test_every_shipped_games_renderer_is_in_its_own_package() -> None:
    assert sorted(p.name for p in (ROOT / "service/viewer/static/renderers").glob("*.js")) == ["generic.js"]
    assert sorted(p.parent.name for p in (ROOT / "domain").glob("*/renderer.js")) == sorted(shipped())


def test_the_check_sees_a_game_named() -> None:
    words = shipped()
    assert named('BOARD = {"ticket_to_ride": 1}', words) == ["ticket_to_ride"]
    assert named("title = 'Toot-Toot Train'", words) == ["Toot-Toot Train"]
    assert named("ticket_to_ride_bots, rules.title", words) == []
