"""Applying one event to the state. No checks and no randomness: `decide` made sure the
event is allowed, and a drawn card or shuffle is read from the event itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.catalogue import UnknownKind
from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.toot_toot import events as ev
from domain.toot_toot.content import Content
from domain.toot_toot.hexes import segment
from domain.toot_toot.state import (
    AFTER,
    DRAWING,
    LOCATION,
    MAIN,
    OVER,
    PLAY,
    SCORING,
    SECOND,
    STARTS,
    Factory,
    Seat,
    State,
)

Apply = Callable[[Content, State, Any], State]


def _goods(seat: Seat, good: str, change: int) -> dict[str, int]:
    goods = {**seat.goods, good: seat.goods.get(good, 0) + change}
    return {g: n for g, n in goods.items() if n}


def _map(content: Content, s: State, e: ev.MapChosen) -> State:
    return replace(s, map=e.map, track=dict(content.map[e.map].track))


def _cards(content: Content, s: State, e: ev.PlayerCardsDealt) -> State:
    seats = tuple(replace(seat, card=c) for seat, c in zip(s.seats, e.cards, strict=True))
    return replace(s, seats=seats)


def _shuffled(content: Content, s: State, e: ev.OrdersShuffled) -> State:
    order = tuple(e.secret()["random"]["shuffle"])
    return replace(s, deck=order, discard=() if e.reshuffle else s.discard)


def _secret(content: Content, s: State, e: ev.SecretOrderDealt) -> State:
    card = e.secret()["order"]
    s = replace(s, deck=tuple(c for c in s.deck if c != card))
    return replace_seat(s, e.seat, hand=(*s.seats[e.seat].hand, card))


def _revealed(content: Content, s: State, e: ev.PublicOrderRevealed) -> State:
    s = replace(s, deck=tuple(c for c in s.deck if c != e.order), public=(*s.public, e.order))
    if s.phase == "setup" and len(s.public) == len(s.seats) + 1:
        n = len(s.seats)
        s = replace(s, phase=STARTS, choosing=tuple(range(n - 1, -1, -1)))
    return s


def _start(content: Content, s: State, e: ev.StartChosen) -> State:
    s = replace_seat(s, e.seat, hex=e.hex, facing=e.facing)
    choosing = s.choosing[1:]
    if choosing:
        return replace(s, choosing=choosing)
    s = replace(s, choosing=(), phase=PLAY, current=0, step=MAIN)
    return replace_seat(s, 0, turns=1)


def _drawn(content: Content, s: State, e: ev.TrackDrawn) -> State:
    a, b = e.edges
    s = replace(s, track={**s.track, e.hex: (*s.track.get(e.hex, ()), segment(a, b))})
    if e.action != "main":
        return s
    drawn = (s.line[2] if s.step == DRAWING and s.line else 0) + 1
    if drawn >= 3:
        return replace(s, step=LOCATION, line=None)
    return replace(s, step=DRAWING, line=(e.hex, b, drawn))


def _line_ended(content: Content, s: State, e: ev.LineEnded) -> State:
    return replace(s, step=LOCATION, line=None)


def _moved(content: Content, s: State, e: ev.TrainMoved) -> State:
    hex_, facing = e.path[-1]
    s = replace_seat(s, e.seat, hex=hex_, facing=facing)
    return s if e.fuel else replace(s, step=LOCATION)


def _turned(content: Content, s: State, e: ev.TrainTurned) -> State:
    return replace(replace_seat(s, e.seat, facing=e.facing), step=LOCATION)


def _factory(content: Content, s: State, e: ev.FactoryBuilt) -> State:
    return replace(s, factories={**s.factories, e.hex: Factory(e.factory, e.exit)})


def _gained(content: Content, s: State, e: ev.GoodsGained) -> State:
    return replace_seat(s, e.seat, goods=_goods(s.seats[e.seat], e.good, e.count))


def _paid(content: Content, s: State, e: ev.GoodsPaid) -> State:
    return replace_seat(s, e.seat, goods=_goods(s.seats[e.seat], e.good, -e.count))


def _shovel(has: bool) -> Apply:
    return lambda content, s, e: replace_seat(s, e.seat, shovel=has)


def _penalty(content: Content, s: State, e: ev.PenaltyTaken) -> State:
    s = replace(s, penalties_out=s.penalties_out + 1)
    return replace_seat(s, e.seat, penalties=s.seats[e.seat].penalties + 1)


def _location_done(s: State, kind: str, main: bool, double: bool) -> State:
    """After a location action: action D leads to the location step; the location step
    ends, unless 2!=2 allows a second one of another kind (R19)."""
    if main:
        return replace(s, step=LOCATION)
    if s.step == LOCATION and double:
        return replace(s, step=SECOND, done=(kind,))
    return replace(s, step=AFTER, done=(*s.done, kind))


def _double(content: Content, s: State, seat: int) -> bool:
    player = content.card[s.seats[seat].card]
    return any(s.seats[seat].upgrades.get(a.id, 0) for a in player.abilities if a.effect == "double")


def _taken(content: Content, s: State, e: ev.ResourceTaken) -> State:
    s = replace_seat(s, e.seat, goods=_goods(s.seats[e.seat], e.good, e.count)) if e.count else s
    return _location_done(s, "take", e.main, _double(content, s, e.seat))


def _processed(content: Content, s: State, e: ev.GoodsProcessed) -> State:
    return _location_done(s, "process", e.main, _double(content, s, e.seat))


def _sold(content: Content, s: State, e: ev.GoodsSold) -> State:
    for _, good, count in e.fills:
        s = replace_seat(s, e.seat, goods=_goods(s.seats[e.seat], good, -count))
    return _location_done(s, "sell", e.main, _double(content, s, e.seat))


def _passed(content: Content, s: State, e: ev.LocationPassed) -> State:
    return replace(s, step=LOCATION if e.main else AFTER)


def _filled(content: Content, s: State, e: ev.IconsFilled) -> State:
    return replace(s, filled={**s.filled, e.order: tuple(sorted((*s.filled.get(e.order, ()), *e.icons)))})


def _score(content: Content, s: State, e: ev.ScoreGained) -> State:
    return replace_seat(s, e.seat, track=s.seats[e.seat].track + e.points)


def _tokens(content: Content, s: State, e: ev.TokensGained) -> State:
    seat = s.seats[e.seat]
    return replace_seat(s, e.seat, tokens=seat.tokens + e.count, gained=seat.gained + e.count)


def _leaves(s: State, order: str, seat: int) -> State:
    """An order leaves the row or the hand (and its filled icons are forgotten)."""
    filled = {o: icons for o, icons in s.filled.items() if o != order}
    s = replace(s, public=tuple(o for o in s.public if o != order), filled=filled)
    return replace_seat(s, seat, hand=tuple(o for o in s.seats[seat].hand if o != order))


def _completed(content: Content, s: State, e: ev.OrderCompleted) -> State:
    s = _leaves(s, e.order, e.seat)
    return replace_seat(s, e.seat, kept=(*s.seats[e.seat].kept, e.order))


def _discarded(content: Content, s: State, e: ev.OrderDiscarded) -> State:
    return replace(_leaves(s, e.order, e.seat), discard=(*s.discard, e.order))


def _upgraded(content: Content, s: State, e: ev.Upgraded) -> State:
    seat = s.seats[e.seat]
    s = replace_seat(s, e.seat, tokens=seat.tokens - 1, upgrades={**seat.upgrades, e.ability: seat.upgrades.get(e.ability, 0) + 1})
    effect = content.card[seat.card].ability[e.ability].effect
    return replace(s, extra_turn=True) if effect == "extra_turn" else s


def _triggered(content: Content, s: State, e: ev.EndTriggered) -> State:
    return replace(s, last_round=e.last_round)


def _turn_ended(content: Content, s: State, e: ev.TurnEnded) -> State:
    last = s.ends_with(e.seat)
    s = replace(s, step=MAIN, line=None, done=())
    if s.extra_turn or last:
        # After the game's last turn no round or turn begins: the counters stop there.
        return s
    nxt = (e.seat + 1) % len(s.seats)
    s = replace(s, current=nxt, in_extra=False, round=s.round + (nxt == 0))
    return replace_seat(s, nxt, turns=s.seats[nxt].turns + 1)


def _extra(content: Content, s: State, e: ev.ExtraTurnBegan) -> State:
    return replace(s, extra_turn=False, in_extra=True)


def _scoring(content: Content, s: State, e: ev.FinalScoringBegan) -> State:
    return replace(s, phase=SCORING, choosing=e.choosing)


def _supplied(content: Content, s: State, e: ev.HandOrdersSupplied) -> State:
    return replace(s, choosing=s.choosing[1:])


def _final(content: Content, s: State, e: ev.FinalScored) -> State:
    seat = s.seats[e.seat]
    return replace_seat(s, e.seat, final={**seat.final, e.line: seat.final.get(e.line, 0) + e.points})


def _ended(content: Content, s: State, e: ev.GameEnded) -> State:
    return replace(s, phase=OVER, choosing=(), totals={int(seat): total for seat, total in e.scores.items()},
                   winners=tuple(e.winners))


def _same(content: Content, s: State, e: Event) -> State:
    return s


HANDLERS: dict[type[Event], Apply] = {
    ev.MapChosen: _map, ev.PlayerCardsDealt: _cards, ev.OrdersShuffled: _shuffled, ev.SecretOrderDealt: _secret,
    ev.PublicOrderRevealed: _revealed, ev.StartChosen: _start, ev.TrackDrawn: _drawn, ev.LineEnded: _line_ended,
    ev.TrainMoved: _moved, ev.TrainTurned: _turned, ev.FactoryBuilt: _factory, ev.GoodsGained: _gained,
    ev.GoodsPaid: _paid, ev.ShovelSpent: _shovel(False), ev.ShovelGained: _shovel(True), ev.PenaltyTaken: _penalty,
    ev.ResourceTaken: _taken, ev.GoodsProcessed: _processed, ev.GoodsSold: _sold, ev.SecretOrderPlayed: _same,
    ev.IconsFilled: _filled, ev.ScoreGained: _score, ev.TokensGained: _tokens, ev.OrderCompleted: _completed,
    ev.OrderDiscarded: _discarded, ev.LocationPassed: _passed, ev.Upgraded: _upgraded, ev.EndTriggered: _triggered,
    ev.TurnEnded: _turn_ended, ev.ExtraTurnBegan: _extra, ev.FinalScoringBegan: _scoring,
    ev.HandOrdersSupplied: _supplied, ev.FinalScored: _final, ev.GameEnded: _ended,
}


def evolve(content: Content, state: State, event: Event) -> State:
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise UnknownKind(event.kind, "toot_toot")
    return handler(content, state, event)
