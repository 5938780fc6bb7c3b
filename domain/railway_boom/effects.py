"""The card effects (`docs/rules/railway_boom.md`, R21-R24): the events they record, one
function per effect type, each implemented once, and how each event changes the state.

An effect acts for its owner `seat` with `source` naming where it came from (a card, a
tourist tile, an icon). Effects that need a choice (a chosen income track, free rails,
draw two buy one) wait in `state.pending` for the owner's `resolve` move; the others
resolve at once, nested effects depth first (R24)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.railway_boom.content import (
    CHOSEN,
    DRAW_TWO_BUY_ONE,
    EXTRA_POWER,
    FREE_CAR_RUN,
    FREE_RAILS,
    GAIN_RESOURCE,
    GAIN_VP,
    RAISE_INCOME,
    TRAIN_TILE_BONUS,
    VP_PER_RAIL_ON_TERRAIN,
    Content,
    Effect,
)
from domain.railway_boom.ledger import Handlers, unchanged, without
from domain.railway_boom.resources import VPScored
from domain.railway_boom.state import Pending, State

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class IncomeRaised(Event):
    """An income cube moved up; any icon entered fires next (R24). `plus` is the "+" value
    beside the level it is on now: what each income phase pays on this track from now on."""

    seat: int
    track: str
    level: int
    plus: int
    source: str
    lost: int = 0


@dataclass(frozen=True, kw_only=True)
class IconReached(Event):
    seat: int
    track: str
    level: int


@dataclass(frozen=True, kw_only=True)
class PowerGained(Event):
    seat: int
    amount: int
    source: str


@dataclass(frozen=True, kw_only=True)
class ChoiceAwaited(Event):
    """An effect waits for its owner's choice."""

    seat: int
    card: str
    effect: str
    amount: int = 1
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CardUsed(Event):
    """A once-per-round card turned sideways."""

    seat: int
    card: str


# --- the effects --------------------------------------------------------------------------


DRAWN_TWO = "development: the 2 cards drawn to buy 1"


def gain_resource(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    steps.gain(seat, effect.resource, effect.amount, source)


def gain_vp(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    steps.emit(VPScored(seat=seat, amount=effect.amount, source=source, automatic=True))


def raise_income(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    if effect.resource == CHOSEN:
        steps.emit(ChoiceAwaited(seat=seat, card=source, effect=RAISE_INCOME, amount=effect.amount, automatic=True))
        return
    raise_levels(steps, seat, effect.resource, effect.amount, source)


def raise_levels(steps: Steps, seat: int, track: str, levels: int, source: str) -> None:
    """Up `levels` on `track`; each icon entered fires in track order (R24). A raise beyond
    the last level is lost (R23)."""
    levels_of = steps.content.income[track]
    for _ in range(levels):
        level = steps.state.seats[seat].income[track]
        if level >= len(levels_of):
            steps.emit(IncomeRaised(seat=seat, track=track, level=level, plus=levels_of[level - 1].plus, source=source,
                                    lost=1, automatic=True))
            continue
        steps.emit(IncomeRaised(seat=seat, track=track, level=level + 1, plus=levels_of[level].plus, source=source,
                                automatic=True))
        icon = steps.content.income[track][level].icon
        if icon is not None:
            steps.emit(IconReached(seat=seat, track=track, level=level + 1, automatic=True))
            apply(steps, seat, icon, f"icon:{track}:{level + 1}")


def free_rails(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    if steps.state.seats[seat].rails > 0:
        steps.emit(ChoiceAwaited(seat=seat, card=source, effect=FREE_RAILS, amount=effect.amount, automatic=True))


def extra_power(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    steps.emit(PowerGained(seat=seat, amount=effect.amount, source=source, automatic=True))


def free_car_run(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    """Acts only inside a train's run (`operation.py` waives one car's coal)."""


def draw_two_buy_one(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    drawn = steps.draw("development", 2, DRAWN_TWO)
    if drawn:
        steps.emit(ChoiceAwaited(seat=seat, card=source, effect=DRAW_TWO_BUY_ONE, amount=effect.amount,
                                 drawn=drawn, automatic=True))


def vp_per_rail_on_terrain(steps: Steps, seat: int, effect: Effect, source: str, terrain: str = "") -> None:
    """Automatic: after a rail of `seat` on `terrain` (R21: rails laid after it is gained)."""
    if terrain == effect.terrain:
        steps.emit(VPScored(seat=seat, amount=effect.amount, source=source, automatic=True))


def train_tile_bonus(steps: Steps, seat: int, effect: Effect, source: str, tiles: int = 0) -> None:
    """Automatic: after a train of `seat` runs, VP per resource tile on the whole train."""
    if tiles:
        steps.emit(VPScored(seat=seat, amount=effect.amount * tiles, source=source, automatic=True))


ON_GAIN: dict[str, Callable[[Steps, int, Effect, str], None]] = {
    GAIN_RESOURCE: gain_resource, GAIN_VP: gain_vp, RAISE_INCOME: raise_income, FREE_RAILS: free_rails,
    EXTRA_POWER: extra_power, FREE_CAR_RUN: free_car_run, DRAW_TWO_BUY_ONE: draw_two_buy_one,
}
"""The effects that act when their card is gained, used or run, or their tile reached."""


def apply(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    ON_GAIN[effect.type](steps, seat, effect, source)


def after_rail(steps: Steps, seat: int, terrain: str) -> None:
    for card in steps.state.seats[seat].developments:
        effect = steps.content.developments[card].effect
        if effect.type == VP_PER_RAIL_ON_TERRAIN:
            vp_per_rail_on_terrain(steps, seat, effect, card, terrain)


def after_train(steps: Steps, seat: int, tiles: int) -> None:
    for card in steps.state.seats[seat].developments:
        effect = steps.content.developments[card].effect
        if effect.type == TRAIN_TILE_BONUS:
            train_tile_bonus(steps, seat, effect, card, tiles)


# --- the events applied -------------------------------------------------------------------


def _income(c: Content, s: State, e: IncomeRaised) -> State:
    return replace_seat(s, e.seat, income={**s.seats[e.seat].income, e.track: e.level})


def _power(c: Content, s: State, e: PowerGained) -> State:
    return replace_seat(s, e.seat, power=s.seats[e.seat].power + e.amount)


def _awaited(c: Content, s: State, e: ChoiceAwaited) -> State:
    decks = s.decks
    if e.drawn:
        decks = {**decks, "development": without(decks["development"], *e.drawn)}
    return replace(s, decks=decks, pending=(*s.pending, Pending(e.seat, e.effect, e.card, e.amount, e.drawn)))


def _used(c: Content, s: State, e: CardUsed) -> State:
    return replace_seat(s, e.seat, sideways=(*s.seats[e.seat].sideways, e.card))


APPLY: Handlers = {IncomeRaised: _income, IconReached: unchanged, PowerGained: _power, ChoiceAwaited: _awaited,
                   CardUsed: _used}
KINDS = tuple(APPLY)
