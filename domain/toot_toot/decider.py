"""Toot-Toot Train's rules bound to a content pack: the game contract (`Decider`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from domain.core.bots import Bot, base_bots
from domain.core.content import Pack
from domain.core.decider import Bound, Decision, Move, Setup, Unbound, choice, fixed_option
from domain.core.errors import GameOver, MalformedMove
from domain.core.events import Audience, Event
from domain.core.figures import Projector
from domain.core.moves import Command, Moves
from domain.core.notation import Notation
from domain.core.randomness import Randomness
from domain.toot_toot import bot, decide, geometry, invariants, legal, table, views, words
from domain.toot_toot.catalogue import EVENTS
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.evolve import evolve
from domain.toot_toot.figures import TootTootProjector
from domain.toot_toot.moves import moves_of
from domain.toot_toot.notation import TootNotation
from domain.toot_toot.orders import PublicOrderRevealed, SecretOrderPlayed
from domain.toot_toot.pack import TootSchema
from domain.toot_toot.setup import RANDOM_MAP
from domain.toot_toot.state import OVER, Seat, State
from domain.toot_toot.steps import Steps
from domain.toot_toot.view_schema import VIEW_SCHEMA

PENALTY_SUPPLIES = (None, 5)
ROUND_LIMIT = 60
"""R31: a game in which nobody reaches 25 (no order anyone can supply) still ends."""


class TootToot(Bound[State]):
    name = "toot_toot"
    view_schema = VIEW_SCHEMA
    ruleset_version = "3"
    """3: a sale's refill shuffles in the hand orders the sale discarded when it reshuffles
    the discards (R35); ruleset 2 (`ruleset2.py`) lost them. 2: final scoring asks each seat
    which hand orders to supply (R22, R33); ruleset 1 (`ruleset1.py`) filled them by itself
    in the order dealt."""
    hand_choice: ClassVar[bool] = True
    sale_discards_reshuffled: ClassVar[bool] = True
    state_type = State
    min_seats = 2
    max_seats = 4
    events = EVENTS
    content_schema = TootSchema()
    pack_option = "pack"
    default_pack = "reference"
    title = words.TITLE
    own_title = words.OWN_TITLE
    refusals = words.REFUSALS
    board_schema = geometry.BOARD_SCHEMA

    def __init__(self, pack: Pack) -> None:
        super().__init__(pack)
        self.content: Content = pack.content

    def static_board(self) -> dict[str, Any] | None:
        return views.static_maps(self.content)

    @property
    def figures(self) -> Projector:
        return TootTootProjector()

    @cached_property
    def moves(self) -> Moves:
        return moves_of(self.content)

    @property
    def move_schemas(self) -> dict[str, dict[str, Any]]:
        return self.moves.schemas()

    # --- creation --------------------------------------------------------------------------

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """`pack`, `map` (a map of the pack, or "random": rolled at setup), `penalty_supply`
        (null for unlimited, or 5; R6), `goods_supply` (false: unlimited; true: the pack's
        counts, R11) and `round_limit` (R31)."""
        if not self.min_seats <= seats <= self.max_seats:
            raise MalformedMove("bad_options", f"Toot-Toot Train needs 2 to 4 seats, not {seats}.")
        if not isinstance(requested, Mapping):
            raise MalformedMove("bad_options", "Options must be a JSON object such as {\"map\": \"harbour\"}.")
        full: dict[str, Any] = {"pack": self.pack.id, "map": RANDOM_MAP,
                                "penalty_supply": None, "goods_supply": False,
                                "round_limit": ROUND_LIMIT}
        unknown = sorted(set(requested) - set(full))
        if unknown:
            raise MalformedMove("bad_options", f"Unknown option {unknown[0]!r}; the options are {', '.join(full)}.")
        full.update(requested)
        maps = sorted(self.content.map)
        if full["map"] != RANDOM_MAP and full["map"] not in maps:
            raise MalformedMove("bad_options", f"Option map {full['map']!r} is not a map of pack {full['pack']}; "
                                f"choose one of {', '.join(maps)} or \"random\".")
        if full["penalty_supply"] not in PENALTY_SUPPLIES:
            raise MalformedMove("bad_options", "Option penalty_supply is how many penalty tokens the supply holds: "
                                "null for no limit, or 5.")
        if not isinstance(full["goods_supply"], bool):
            raise MalformedMove("bad_options", "Option goods_supply must be true (the supply holds the pack's count of each "
                                "good) or false (no limit).")
        limit = full["round_limit"]
        if not isinstance(limit, int) or isinstance(limit, bool) or not 3 <= limit <= 200:
            raise MalformedMove("bad_options", f"Option round_limit, the most rounds a game lasts, must be a whole number from 3 to 200, "
                                f"not {limit!r}.")
        return full

    def option_schemas(self, seats: int) -> dict[str, dict[str, Any]]:
        maps = sorted(self.content.map)
        return {
            "pack": fixed_option(self.pack.id),
            "map": choice("string", RANDOM_MAP, "A map of the pack, or \"random\": rolled at setup.",
                          enum=[RANDOM_MAP, *maps]),
            "penalty_supply": choice("integer", None, "Penalty tokens in the supply: null for no limit.",
                                     enum=PENALTY_SUPPLIES),
            "goods_supply": choice("boolean", False, "The supply holds the pack's count of each good (else no limit)."),
            "round_limit": choice("integer", ROUND_LIMIT, "The most rounds a game lasts.", minimum=3, maximum=200),
        }

    def initial_state(self, setup: Setup) -> State:
        chosen = self.options(setup.options, len(setup.seats))
        return State(seats=tuple(Seat(name) for name in setup.seats), requested_map=chosen["map"],
                     penalty_supply=chosen["penalty_supply"], goods_supply=chosen["goods_supply"],
                     round_limit=chosen["round_limit"])

    def setup(self, state: State, rng: Randomness) -> list[Event]:
        return decide.setup_events(self.content, state, rng)

    def table_setup(self, state: State, observed: Mapping[str, Any]) -> list[Event]:
        """The opening as laid out at a table (`table.py` gives the observed form)."""
        return table.table_setup(self.content, state, observed, RANDOM_MAP, decide.setup_events)

    @property
    def notation(self) -> Notation[State]:
        return TootNotation(self.content)

    # --- play ------------------------------------------------------------------------------

    def ctx(self, state: State, seat: int) -> Ctx:
        return Ctx(self.content, state, seat, self.hand_choice, self.sale_discards_reshuffled)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(self.content, state, event)

    def decide(self, state: State, seat: int, move: Move, rng: Randomness) -> list[Event]:
        return self._decided(state, seat, move, rng).events

    def decision(self, state: State, seat: int, move: Move, rng: Randomness) -> Decision[State]:
        # `decide` evolves as it goes (steps.py): hand over what it reached.
        return self._decided(state, seat, move, rng).decision()

    def _decided(self, state: State, seat: int, move: Move, rng: Randomness) -> Steps:
        if state.phase == OVER:
            raise GameOver()
        command: Command = self.moves.parse(move)
        return decide.decided(self.ctx(state, seat), command, rng)

    def active_seats(self, state: State) -> frozenset[int]:
        return legal.active_seats(state)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_moves(self.ctx(state, seat))

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> dict[int, int]:
        return {i: s.track + sum(s.final.values()) for i, s in enumerate(state.seats)}

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        return views.view(self.content, state, audience)

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return views.move_of(event)

    def reveals(self, event: Event) -> bool:
        """A public order turned up from the deck, or a hand order shown as it is played."""
        return isinstance(event, (PublicOrderRevealed, SecretOrderPlayed))

    def invariants(self, state: State) -> list[str]:
        return invariants.problems(self.content, state)

    def playout_choice(self, state: State, seat: int, moves: Sequence[dict[str, Any]],
                       chooser: random.Random) -> dict[str, Any] | None:
        return bot.choose(self.ctx(state, seat), moves, chooser)

    @property
    def bots(self) -> Mapping[str, Bot]:
        """`random`, `playout` and `greedy` (the sales planner of `bot.py`)."""
        return {**base_bots(self), "greedy": bot.GreedyBot(self.content)}


RULES = Unbound(TootToot)
"""Not yet bound to a pack: the registry binds it to one."""
