"""The card effects (R22): one function per effect type, each implemented once.

An effect acts for its owner `seat` with `source` naming where it came from (a card, a
tourist tile, an icon). Effects that need a choice (a chosen income track, free rails,
draw two buy one) wait in `state.pending` for the owner's `resolve` move; the others
resolve at once, nested effects depth first (R24)."""

from __future__ import annotations

from collections.abc import Callable

from domain.railway_boom import events as ev
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
    Effect,
)
from domain.railway_boom.steps import Steps

DRAWN_TWO = "development: the 2 cards drawn to buy 1"


def gain_resource(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    steps.gain(seat, effect.resource, effect.amount, source)


def gain_vp(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    steps.emit(ev.VPScored(seat=seat, amount=effect.amount, source=source, automatic=True))


def raise_income(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    if effect.resource == CHOSEN:
        steps.emit(ev.ChoiceAwaited(seat=seat, card=source, effect=RAISE_INCOME, amount=effect.amount, automatic=True))
        return
    raise_levels(steps, seat, effect.resource, effect.amount, source)


def raise_levels(steps: Steps, seat: int, track: str, levels: int, source: str) -> None:
    """Up `levels` on `track`; each icon entered fires in track order (R24). A raise beyond
    the last level is lost (R23)."""
    levels_of = steps.content.income[track]
    for _ in range(levels):
        level = steps.state.seats[seat].income[track]
        if level >= len(levels_of):
            steps.emit(ev.IncomeRaised(seat=seat, track=track, level=level, plus=levels_of[level - 1].plus, source=source,
                                       lost=1, automatic=True))
            continue
        steps.emit(ev.IncomeRaised(seat=seat, track=track, level=level + 1, plus=levels_of[level].plus, source=source,
                                   automatic=True))
        icon = steps.content.income[track][level].icon
        if icon is not None:
            steps.emit(ev.IconReached(seat=seat, track=track, level=level + 1, automatic=True))
            apply(steps, seat, icon, f"icon:{track}:{level + 1}")


def free_rails(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    if steps.state.seats[seat].rails > 0:
        steps.emit(ev.ChoiceAwaited(seat=seat, card=source, effect=FREE_RAILS, amount=effect.amount, automatic=True))


def extra_power(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    steps.emit(ev.PowerGained(seat=seat, amount=effect.amount, source=source, automatic=True))


def free_car_run(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    """Acts only inside a train's run (`operation.py` waives one car's coal)."""


def draw_two_buy_one(steps: Steps, seat: int, effect: Effect, source: str) -> None:
    drawn = steps.draw("development", 2, DRAWN_TWO)
    if drawn:
        steps.emit(ev.ChoiceAwaited(seat=seat, card=source, effect=DRAW_TWO_BUY_ONE, amount=effect.amount,
                                    drawn=drawn, automatic=True))


def vp_per_rail_on_terrain(steps: Steps, seat: int, effect: Effect, source: str, terrain: str = "") -> None:
    """Automatic: after a rail of `seat` on `terrain` (R21: rails laid after it is gained)."""
    if terrain == effect.terrain:
        steps.emit(ev.VPScored(seat=seat, amount=effect.amount, source=source, automatic=True))


def train_tile_bonus(steps: Steps, seat: int, effect: Effect, source: str, tiles: int = 0) -> None:
    """Automatic: after a train of `seat` runs, VP per resource tile on the whole train."""
    if tiles:
        steps.emit(ev.VPScored(seat=seat, amount=effect.amount * tiles, source=source, automatic=True))


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
