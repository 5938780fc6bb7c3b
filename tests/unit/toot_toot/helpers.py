"""Helpers for the Toot-Toot Train tests: the rules bound to the reference pack, positions
built directly as a `State` (`table`), and moves played through `decide` + `evolve`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from domain.core import content
from domain.core.events import Event
from domain.core.randomness import Randomness, SeededRandom
from domain.toot_toot.decider import TootToot
from domain.toot_toot.hexes import opp, segment
from domain.toot_toot.pack import TootSchema
from domain.toot_toot.ruleset1 import TootTootRuleset1
from domain.toot_toot.ruleset2 import TootTootRuleset2
from domain.toot_toot.state import MAIN, PLAY, Factory, Seat, State
from tests import playouts

PACK_DIR = Path(__file__).resolve().parents[3] / "domain" / "toot_toot" / "packs" / "reference"
SEED = bytes(32)


def pack_files(folder: Path = PACK_DIR) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.suffix == ".json"}


def load(files: Mapping[str, bytes], label: str = "reference") -> content.Pack:
    return content.load(files, lambda game: TootSchema() if game == "toot_toot" else None, label=label)


RULES = TootToot(load(pack_files()))
CONTENT = RULES.content
RULES_1 = TootTootRuleset1(RULES.pack)
"""Ruleset 1, as the records made before ruleset 2 replay under it."""
RULES_2 = TootTootRuleset2(RULES.pack)
"""Ruleset 2, as the records made before ruleset 3 replay under it."""


def table(seats: int = 2, *, map: str = "harbour", trains: Sequence[tuple[str, int] | None] | None = None,
          goods: Sequence[Mapping[str, int]] | None = None, hands: Sequence[Sequence[str]] | None = None,
          kept: Sequence[Sequence[str]] | None = None, public: Sequence[str] = (),
          filled: Mapping[str, Sequence[int]] | None = None, track: Mapping[str, Iterable[Sequence[int]]] | None = None,
          factories: Mapping[str, tuple[str, int]] | None = None, upgrades: Sequence[Mapping[str, int]] | None = None,
          tokens: Sequence[int] | None = None, score: Sequence[int] | None = None, shovel: Sequence[bool] | None = None,
          penalties: Sequence[int] | None = None, current: int = 0, step: str = MAIN, round: int = 1,
          last_round: int | None = None, penalty_supply: int | None = None, goods_supply: bool = False,
          done: Sequence[str] = (),
          line: tuple[str, int, int] | None = None, extra_turn: bool = False, discard: Sequence[str] = (),
          deck: Sequence[str] | None = None, phase: str = PLAY, choosing: Sequence[int] = ()) -> State:
    """A position in play (or in final scoring, with `phase` and the seats still `choosing`
    which hand orders to supply). A train stands on a straight segment ending at its facing unless
    `track` draws one; every order not placed elsewhere is in the deck (in pack order)."""
    laid: dict[str, tuple[tuple[int, int], ...]] = dict(CONTENT.map[map].track)
    for hex_, segments in (track or {}).items():
        laid[hex_] = (*laid.get(hex_, ()), *(segment(a, b) for a, b in segments))
    trains = list(trains or [None] * seats)
    for place in trains:
        if place is not None and not any(place[1] in s for s in laid.get(place[0], ())):
            laid[place[0]] = (*laid.get(place[0], ()), segment(opp(place[1]), place[1]))
    placed = {*public, *discard, *(o for h in hands or () for o in h), *(o for k in kept or () for o in k)}
    seat_list = []
    for i in range(seats):
        held = dict(upgrades[i]) if upgrades else {}
        spare = tokens[i] if tokens else 0
        seat_list.append(Seat(
            name=f"seat {i}", card=CONTENT.cards[i].id, hex=trains[i][0] if trains[i] else None,
            facing=trains[i][1] if trains[i] else 0, goods={g: n for g, n in (goods[i] if goods else {}).items() if n},
            hand=tuple(hands[i]) if hands else (), kept=tuple(kept[i]) if kept else (),
            shovel=shovel[i] if shovel else True, penalties=penalties[i] if penalties else 0, tokens=spare,
            gained=spare + sum(held.values()), upgrades=held, track=score[i] if score else 0, turns=round))
    return State(
        seats=tuple(seat_list), map=map, phase=phase, choosing=tuple(choosing),
        deck=tuple(deck) if deck is not None else tuple(o.id for o in CONTENT.orders if o.id not in placed),
        discard=tuple(discard), public=tuple(public), filled={o: tuple(i) for o, i in (filled or {}).items()},
        track=laid, factories={h: Factory(k, e) for h, (k, e) in (factories or {}).items()}, current=current,
        step=step, line=line, done=tuple(done), extra_turn=extra_turn, round=round, last_round=last_round,
        penalties_out=sum(penalties or ()), penalty_supply=penalty_supply, goods_supply=goods_supply)


def play(state: State, seat: int, move: Mapping[str, Any], rng: Randomness | None = None) -> tuple[State, list[Event]]:
    events = RULES.decide(state, seat, move, rng or SeededRandom(SEED))
    return playouts.fold(RULES, state, events), events


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]
