"""Technology and upgrades ("Technology and upgrades"; R16, R17, R20), read top to bottom: the
events, the tokens a score gain brings (one per gear passed, at most 10 a seat), the checks
on placing a token, the abilities a seat may upgrade, what an upgrade records (a Shovel
gives the shovel back, an Order deals a secret order, a 1Turn an extra turn: `flow`), and
how each event changes the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.core.state import replace, replace_seat
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.orders import Deck
from domain.toot_toot.seats import card, gears_passed, placeable
from domain.toot_toot.state import State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TokensGained(Event):
    seat: int
    count: int
    gears: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Upgraded(Event):
    seat: int
    ability: str


@dataclass(frozen=True, kw_only=True)
class ShovelGained(Event):
    seat: int


# --- tokens for gears passed (R16) --------------------------------------------------------


def gain_tokens(steps: Steps, gained: int) -> None:
    """The tokens a score gain of the move's seat brings, from its track before the move."""
    ctx = steps.ctx
    me = ctx.me
    gears = gears_passed(ctx.content.gears, me.track, me.track + gained, me.gained)
    if gears:
        steps.emit(TokensGained(seat=ctx.seat, count=len(gears), gears=gears, automatic=True))


# --- the checks ---------------------------------------------------------------------------


def check_upgrade(ctx: Ctx, ability_id: str) -> None:
    if card(ctx.content, ctx.me).ability.get(ability_id) is None:
        raise IllegalMove("unknown_ability", f"Your card has no ability {ability_id!r}.")
    if ctx.me.tokens < 1:
        raise IllegalMove("no_tokens", "You have no technology token to place (R16).")
    if ability_id not in placeable(ctx.content, ctx.me):
        raise IllegalMove("cannot_upgrade", f"{ability_id} is full, or its column needs more tokens in the columns "
                          "before it (R17).")


# --- the abilities a seat may upgrade -----------------------------------------------------


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    return [{"type": "upgrade", "ability": a} for a in placeable(ctx.content, ctx.me)]


# --- the upgrade --------------------------------------------------------------------------


def upgrade(steps: Steps, ability_id: str, rng: Randomness) -> None:
    ctx = steps.ctx
    check_upgrade(ctx, ability_id)
    ability = card(ctx.content, ctx.me).ability[ability_id]
    steps.emit(Upgraded(seat=ctx.seat, ability=ability_id))
    if ability.effect == "shovel" and not ctx.me.shovel:
        steps.emit(ShovelGained(seat=ctx.seat, automatic=True))
    elif ability.effect == "order":
        Deck(steps, ctx.state, rng).deal_secret(ctx.seat, "order ability")


# --- the events applied -------------------------------------------------------------------


def _tokens(content: Content, s: State, e: TokensGained) -> State:
    seat = s.seats[e.seat]
    return replace_seat(s, e.seat, tokens=seat.tokens + e.count, gained=seat.gained + e.count)


def _upgraded(content: Content, s: State, e: Upgraded) -> State:
    seat = s.seats[e.seat]
    s = replace_seat(s, e.seat, tokens=seat.tokens - 1, upgrades={**seat.upgrades, e.ability: seat.upgrades.get(e.ability, 0) + 1})
    effect = content.card[seat.card].ability[e.ability].effect
    return replace(s, extra_turn=True) if effect == "extra_turn" else s


def _shovel_gained(content: Content, s: State, e: ShovelGained) -> State:
    return replace_seat(s, e.seat, shovel=True)


APPLY: Handlers = {TokensGained: _tokens, Upgraded: _upgraded, ShovelGained: _shovel_gained}
KINDS = tuple(APPLY)
