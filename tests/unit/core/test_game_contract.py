"""The game contract (`domain/core/decider.py`): declared in one place, with every optional
hook's default; games registered from one list; the core knowing no game."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.core import log, registry
from domain.core.bots import LEVELS, bot_of
from domain.core.decider import Bound, Decider, DemoPlan, Setup, Unbound
from domain.core.errors import GameOver, IllegalMove, MalformedMove, NotYourTurn
from domain.core.events import Audience, Event
from domain.core.figures import ScoresOnly
from domain.core.randomness import Randomness

ROOT = Path(__file__).resolve().parents[3]
HOOKS = ("invariants", "playout_choice", "bots", "adjust", "reveals", "move_schemas", "content_schema", "pack_option",
         "default_pack", "pack", "with_pack", "static_board", "board_schema", "figures", "refusals", "demo", "own_title")


@dataclass(frozen=True, kw_only=True)
class Flipped(Event):
    """The coin was flipped."""


class Coin(Decider[int]):
    """The least a game can be: one seat flips, the game ends."""

    name = "coin"
    title = "Coin"
    ruleset_version = "1"
    state_type = int
    min_seats = 1
    max_seats = 1

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return {}

    def initial_state(self, setup: Setup) -> int:
        return 0

    def setup(self, state: int, rng: Randomness) -> list[Event]:
        return []

    def evolve(self, state: int, event: Event) -> int:
        return 1

    def decide(self, state: int, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        return [Flipped()]

    def active_seats(self, state: int) -> frozenset[int]:
        return frozenset() if state else frozenset({0})

    def legal_moves(self, state: int, seat: int) -> list[dict[str, Any]]:
        return [] if state else [{"type": "flip"}]

    def is_over(self, state: int) -> bool:
        return state == 1

    def scores(self, state: int) -> dict[int, int]:
        return {0: state}

    def view(self, state: int, audience: Audience) -> dict[str, Any]:
        return {"flipped": bool(state)}

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return {"type": "flip"}


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_the_core_imports_no_concrete_game() -> None:
    modules = sorted((ROOT / "domain" / "core").rglob("*.py"))
    assert len(modules) > 10
    found = {f"{path.relative_to(ROOT)} imports {name}" for path in modules for name in imports_of(path)
             if name.startswith("domain.") and not name.startswith("domain.core")}
    assert found == set()


def test_no_hook_is_looked_up_by_name() -> None:
    """Every optional hook is a declared member: calling code uses it, never getattr/hasattr."""
    found = []
    for folder in ("domain", "service", "projections", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                        and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value in HOOKS):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id}(..., {node.args[1].value!r})")
    assert found == []


def test_every_optional_hook_has_its_declared_default() -> None:
    coin = Coin()
    assert Coin.missing() == []
    assert coin.invariants(0) == []
    assert coin.playout_choice(0, 0, [{"type": "flip"}], random.Random(1)) is None
    assert sorted(coin.bots) == ["playout", "random"]
    assert coin.reveals(Flipped()) is False
    assert coin.move_schemas == {}
    assert (coin.content_schema, coin.pack) == (None, None)
    assert (coin.static_board(), coin.board_schema, coin.refusals, coin.own_title) == (None, None, {}, "")
    assert isinstance(coin.figures, ScoresOnly) and coin.demo == DemoPlan()
    with pytest.raises(IllegalMove) as refused:
        coin.adjust(0, {"seat": 0, "kind": "vp", "amount": 1, "detail": {}})
    assert refused.value.code == "adjustment_unsupported" and "coin" in refused.value.message


def test_a_game_missing_part_of_the_contract_is_refused_naming_what_is_missing() -> None:
    class Nameless(Coin):
        name = None  # type: ignore[assignment]

    with pytest.raises(TypeError, match="class attribute 'name' \\(str\\) is not set"):
        registry.register(Nameless())

    class Packless(Coin):
        name = "packless"
        content_schema = games.schema("ticket_to_ride")

    with pytest.raises(TypeError, match="subclasses Bound"):
        registry.register(Packless())

    # Rules bound to a pack are never registered as such: the game is, unbound.
    bound = games.current("ticket_to_ride")
    with pytest.raises(TypeError, match=r"register the game as Unbound\(TicketToRide\)"):
        registry.register(bound)
    assert isinstance(bound, Bound) and bound.pack.id == "usa"
    unbound = games.current_rules("ticket_to_ride")
    assert isinstance(unbound, Unbound) and not isinstance(unbound, Decider)  # nothing to play on no pack
    assert games.bind(unbound, bound.pack) is bound

    class Boardless(Coin):
        name = "boardless"
        board_schema = {"type": "object"}  # noqa: RUF012  (a test's own class)

    with pytest.raises(TypeError, match="static_board must publish its board_schema"):
        registry.register(Boardless())

    class Untitled(Coin):
        name = "untitled"
        title = None  # type: ignore[assignment]

    with pytest.raises(TypeError, match="'title' \\(str\\) is not set"):
        registry.register(Untitled())

    class Undecided(Decider[int]):
        name, ruleset_version, state_type, min_seats, max_seats, title = "undecided", "1", int, 1, 2, "Undecided"

    assert "method 'decide' is not implemented" in Undecided.missing()
    with pytest.raises(TypeError, match="is not a game"):
        registry.register(object())  # type: ignore[arg-type]
    assert not {"coin", "packless", "undecided"} & set(games.names())


def test_the_games_are_registered_from_one_list() -> None:
    assert [game.name for game in games.GAMES] == ["ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"]
    assert all(isinstance(game, Unbound) and game.missing() == [] for game in games.GAMES)
    # Importing the core registers nothing; importing domain.games registers exactly its list.
    script = ("from domain.core import log, registry, audit; before = registry.names(); import domain.games; "
              "print(before, registry.names())")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[] ['age_of_steam', 'railway_boom', 'ticket_to_ride', 'toot_toot']"


def test_an_unregistered_game_is_a_clear_error() -> None:
    with pytest.raises(MalformedMove) as unknown:
        games.current("no_such_game")
    assert unknown.value.code == "unknown_game"
    assert "Unknown game 'no_such_game'" in unknown.value.message and "ticket_to_ride" in unknown.value.message


def test_every_game_offers_its_bots_by_level_and_an_unknown_level_is_named() -> None:
    coin = Coin()
    for level in ("random", "playout"):
        assert bot_of(coin, level).choose(0, 0, [{"type": "flip"}], random.Random(1)) == {"type": "flip"}
    with pytest.raises(MalformedMove) as refused:
        bot_of(coin, "grandmaster")
    assert refused.value.code == "unknown_bot"
    assert refused.value.message == "coin has no 'grandmaster' bot; its levels are random, playout."
    for name in games.names():
        rules = games.current(name)
        assert {"random", "playout"} <= set(rules.bots), name
        assert all(bot.level == level and level in LEVELS for level, bot in rules.bots.items()), name


def test_a_move_out_of_turn_is_told_by_the_seats_names() -> None:
    # `log.by_name`: a `NotYourTurn` raised inside names the seats and who is to move; any
    # other error passes through as it was, and nothing is raised when nothing went wrong.
    with pytest.raises(NotYourTurn) as told, log.by_name(["Ann", "Ben", "Cy"], {2, 0}):
        raise NotYourTurn(1)
    assert told.value.message == "It is not Ben's turn to act; to move: Ann, Cy."
    assert told.value.__cause__ is None and told.value.__suppress_context__
    with pytest.raises(GameOver), log.by_name(["Ann"], {0}):
        raise GameOver()
    with log.by_name(["Ann"], {0}):
        pass
