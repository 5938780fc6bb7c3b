"""Phase 5, operation (`docs/rules/railway_boom.md`, R26-R28), read top to bottom: the events,
each seat's sealed plan of trains, checked when it is submitted (by running it on a copy) and
run when every plan is in, seat by seat in bid-track order, the plans listed as legal moves,
and how each event changes the state."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core import sealed
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.moves import Command
from domain.core.state import replace, replace_seat
from domain.railway_boom import effects
from domain.railway_boom.content import FREE_CAR_RUN, RESOURCES, Content
from domain.railway_boom.effects import CardUsed
from domain.railway_boom.ledger import Handlers, add, unchanged
from domain.railway_boom.resources import VPScored
from domain.railway_boom.state import State

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TilePlaced(Event):
    """A resource tile put on a train card for good (R28)."""

    seat: int
    card: str
    tile: str


@dataclass(frozen=True, kw_only=True)
class TrainFormed(Event):
    seat: int
    locomotive: str
    cars: tuple[str, ...]
    free: str | None = None


@dataclass(frozen=True, kw_only=True)
class CardRan(Event):
    seat: int
    card: str
    coal: int


# --- the plan -----------------------------------------------------------------------------


Plan = dict[str, Any]


def plan_of(fields: Any) -> Plan:
    """The plan as it is sealed and recorded: plain lists and objects."""
    return {"runs": [list(train) for train in fields["runs"]],
            "tiles": {card: list(kinds) for card, kinds in sorted(fields["tiles"].items())},
            "free": list(fields["free"]), "convert": dict(sorted(fields["convert"].items()))}


def free_cards(content: Content, state: State, seat: int) -> list[str]:
    me = state.seats[seat]
    return [c for c in me.developments if content.developments[c].effect.type == FREE_CAR_RUN and c not in me.sideways]


def check(steps: Steps, seat: int, plan: Plan) -> None:
    """Refuse a plan that breaks a rule, by running it on a copy: R27's coal check included."""
    content, state = steps.content, steps.state
    me = state.seats[seat]
    used: list[str] = [card for train in plan["runs"] for card in train]
    for card in used:
        if card not in me.trains:
            raise IllegalMove("not_your_train", f"Train card {card} is not yours.")
    if len(set(used)) != len(used):
        raise IllegalMove("card_runs_twice", "Each card runs once a round: a card is listed twice.")
    for train in plan["runs"]:
        if not train or content.trains[train[0]].kind == "car":
            raise IllegalMove("train_needs_locomotive", "Each train starts with a locomotive.")
        if any(content.trains[c].kind != "car" for c in train[1:]):
            raise IllegalMove("locomotives_never_coupled", "Only cars follow a locomotive; locomotives are never coupled.")
    cars = {c for train in plan["runs"] for c in train[1:]}
    if not set(plan["free"]) <= cars or len(set(plan["free"])) != len(plan["free"]):
        raise IllegalMove("free_run_not_a_car", "A free run names a car of one of your trains, once.")
    if len(plan["free"]) > len(free_cards(content, state, seat)):
        raise IllegalMove("no_free_run", "You have no unused free-car-run card for every car named free.")
    placed = Counter(kind for kinds in plan["tiles"].values() for kind in kinds)
    for kind, count in placed.items():
        if me.tiles.get(kind, 0) < count:
            raise IllegalMove("tiles_not_held", f"You hold {me.tiles.get(kind, 0)} {kind} tiles, not {count}.")
    for card, kinds in plan["tiles"].items():
        if card not in me.trains:
            raise IllegalMove("not_your_train", f"Train card {card} is not yours.")
        if len(me.loaded.get(card, ())) + len(kinds) > content.trains[card].slots:
            raise IllegalMove("no_free_slot", f"{card} has {content.trains[card].slots} slot(s) for tiles (R28).")
    for source, pairs in plan["convert"].items():
        if source == "coal" or source not in RESOURCES or me.resources[source] < 2 * pairs:
            raise IllegalMove("cannot_convert", f"You cannot convert {pairs} pair(s) of {source} into coal.")
    run(steps.trial(), seat, plan)


def operate(steps: Steps, seat: int, c: Command) -> None:
    state = steps.state
    plan = plan_of(c.fields)
    check(steps, seat, plan)
    assert state.sealed is not None
    for event in sealed.seal(state.sealed, seat, plan):
        steps.emit(event)
    if steps.state.sealed is not None and steps.state.sealed.complete:
        # R26: run in bid-track order, right to left.
        for who in reversed(steps.state.order):
            run(steps, who, steps.state.sealed.choices[who])


def run(steps: Steps, seat: int, plan: Plan) -> None:
    steps.convert(seat, "coal", plan["convert"])
    for card, kinds in plan["tiles"].items():
        for kind in kinds:
            steps.emit(TilePlaced(seat=seat, card=card, tile=kind, automatic=True))
    free_left = free_cards(steps.content, steps.state, seat)
    for train in plan["runs"]:
        free = next((c for c in train[1:] if c in plan["free"]), None)
        need = sum(steps.content.trains[c].coal for c in train if c != free)
        coal = steps.state.seats[seat].resources["coal"]
        if need > coal:
            raise IllegalMove("not_enough_coal", f"Train {'+'.join(train)} needs {need} coal; you would have {coal} (R27).")
        steps.emit(TrainFormed(seat=seat, locomotive=train[0], cars=tuple(train[1:]), free=free, automatic=True))
        if free is not None:
            steps.emit(CardUsed(seat=seat, card=free_left.pop(0), automatic=True))
        for card in train:
            _run_card(steps, seat, card, card == free)
        tiles = sum(len(steps.state.seats[seat].loaded.get(c, ())) for c in train)
        effects.after_train(steps, seat, tiles)


def _run_card(steps: Steps, seat: int, card: str, free: bool) -> None:
    """R26/R28: coal, VP, effect, then each tile on it gives 1 of its kind."""
    printed = steps.content.trains[card]
    coal = 0 if free else printed.coal
    steps.emit(CardRan(seat=seat, card=card, coal=coal, automatic=True))
    steps.pay(seat, "coal", coal, card)
    if printed.vp:
        steps.emit(VPScored(seat=seat, amount=printed.vp, source="trains", automatic=True))
    if printed.effect is not None:
        effects.apply(steps, seat, printed.effect, card)
    for kind in steps.state.seats[seat].loaded.get(card, ()):
        steps.gain(seat, kind, 1, f"tile:{card}")


def _greedy(content: Content, state: State, seat: int, with_tiles: bool, convert: dict[str, int]) -> Plan:
    me = state.seats[seat]
    coal = me.resources["coal"] + sum(convert.values())
    free = free_cards(content, state, seat)
    locos = sorted((c for c in me.trains if content.trains[c].kind != "car"), key=lambda c: -content.trains[c].vp)
    cars = sorted((c for c in me.trains if content.trains[c].kind == "car"), key=lambda c: -content.trains[c].vp)
    runs, frees = [], []
    for loco in locos:
        if content.trains[loco].coal > coal:
            continue
        coal -= content.trains[loco].coal
        train = [loco]
        while cars and coal >= content.trains[cars[0]].coal:
            car = cars.pop(0)
            train.append(car)
            if free and content.trains[car].coal:
                frees.append(car)
                free.pop()
            else:
                coal -= content.trains[car].coal
        runs.append(train)
    tiles: dict[str, list[str]] = {}
    if with_tiles:
        held = [kind for kind, n in sorted(me.tiles.items()) for _ in range(n)]
        for card in me.trains:
            room = content.trains[card].slots - len(me.loaded.get(card, ()))
            while room > 0 and held:
                tiles.setdefault(card, []).append(held.pop())
                room -= 1
    return {"runs": runs, "tiles": tiles, "free": frees, "convert": convert}


def options(steps: Steps, seat: int) -> list[dict[str, Any]]:
    """A representative set of plans, each checked as a submitted plan is: running nothing,
    each locomotive alone, each locomotive with each one car, and the greedy plan with and
    without tiles and with and without a conversion into coal. Every plan cannot be listed:
    with 5 locomotives and 8 cars the ways to split the cars into ordered trains alone run to
    tens of millions, before running orders, tiles, free runs and conversions
    (docs/rules/railway_boom.md, "How the engine applies these rulings")."""
    content, state = steps.content, steps.state
    me = state.seats[seat]
    locomotives = [c for c in me.trains if content.trains[c].kind != "car"]
    cars = [c for c in me.trains if content.trains[c].kind == "car"]
    plans: list[Plan] = [{"runs": [], "tiles": {}, "free": [], "convert": {}}]
    plans += [{"runs": [[c]], "tiles": {}, "free": [], "convert": {}} for c in locomotives]
    plans += [{"runs": [[loco, car]], "tiles": {}, "free": [], "convert": {}} for loco in locomotives for car in cars]
    richest = max((r for r in RESOURCES if r != "coal"), key=lambda r: me.resources[r])
    converts: list[dict[str, int]] = [{}] + ([{richest: min(3, me.resources[richest] // 2)}] if me.resources[richest] >= 2 else [])
    plans += [_greedy(content, state, seat, tiles, convert) for tiles in (False, True) for convert in converts]
    out: list[dict[str, Any]] = []
    for plan in plans:
        move = {"type": "operate", **plan_of(plan)}
        if move in out:
            continue
        try:
            check(steps, seat, plan_of(plan))
        except IllegalMove:
            continue
        out.append(move)
    return out


# --- the events applied -------------------------------------------------------------------


def _tile_placed(c: Content, s: State, e: TilePlaced) -> State:
    seat = s.seats[e.seat]
    loaded = {**seat.loaded, e.card: (*seat.loaded.get(e.card, ()), e.tile)}
    return replace_seat(s, e.seat, tiles=add(seat.tiles, e.tile, -1), loaded=loaded)


def _sealed(c: Content, s: State, e: Event) -> State:
    return replace(s, sealed=sealed.apply(s.sealed, e)) if s.sealed is not None else s


APPLY: Handlers = {TilePlaced: _tile_placed, TrainFormed: unchanged, CardRan: unchanged, sealed.SubmissionSealed: _sealed,
                   sealed.SubmissionsRevealed: unchanged}
KINDS: tuple[type[Event], ...] = (TilePlaced, TrainFormed, CardRan)
"""The sealed submissions' kinds are the core's (`domain/core/sealed.py`)."""
