"""The rules read the map from the pack they are bound to, and from nowhere else."""

from __future__ import annotations

import json
import re
from pathlib import Path

from domain import games
from domain.age_of_steam import AgeOfSteam
from domain.core import content
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from tests.rust_belt import DECIDER, MAP

PACK = Path(__file__).resolve().parents[3] / "domain" / "age_of_steam" / "packs" / "rust_belt"


def _files(**rules: int) -> dict[str, bytes]:
    files = {path.name: path.read_bytes() for path in PACK.iterdir() if path.suffix == ".json"}
    files["rules.json"] = json.dumps({**json.loads(files["rules.json"]), **rules}).encode()
    return files


def test_the_bound_rules_hold_the_packs_map() -> None:
    assert DECIDER.pack is not None and DECIDER.map is DECIDER.pack.content
    assert len(MAP.terrain) == 189 and MAP.terrain["8,0"] == "lake" and MAP.place_name("0,10", {}) == "Kansas City"


def test_a_game_takes_its_supplies_from_the_map_it_is_bound_to() -> None:
    # Built directly: binding (`Unbound.with_pack`) would refuse this map under ruleset 1, which plays only the
    # printed Rust Belt; the point here is where the rules look.
    richer = AgeOfSteam(content.load(_files(start_money=25, town_discs=6), games.schema, label="rich"))
    setup = Setup(("a", "b", "c"), richer.options({}, 3))
    state = richer.initial_state(setup)
    assert state.discs == 6 and richer.options({}, 3)["town_discs"] == 6
    events = richer.setup(state, SeededRandom(bytes(32)))
    capital = [e.data["cash"] for e in events if e.kind == "StartingCapitalTaken"]
    assert capital == [25, 25, 25]
    shipped = DECIDER.setup(DECIDER.initial_state(Setup(("a", "b", "c"), DECIDER.options({}, 3))), SeededRandom(bytes(32)))
    assert [e.data["cash"] for e in shipped if e.kind == "StartingCapitalTaken"] == [10, 10, 10]


def test_no_rule_imports_a_map() -> None:
    package = PACK.parents[1]
    imports = re.compile(r"^\s*(from|import)\s.*rust_belt", re.M)
    assert [m.name for m in package.glob("*.py") if imports.search(m.read_text(encoding="utf-8"))] == []
    assert not (package / "rust_belt.py").exists()
