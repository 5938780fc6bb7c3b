"""The game contract: the one base class every game's rules subclass.

A game is a set of pure functions over its own state: `setup` records the opening (deal,
market, goods) as events, `decide` turns a seat's move into events or raises `IllegalMove`,
`evolve` applies one event and never validates or draws randomness. Several seats may be
active at once (`active_seats`): a sealed simultaneous phase accepts each seat's move as it
arrives, and the game keeps each choice secret to its seat until all are in.

`Decider` declares everything the core, the service and the projections ask of a game:
the required members (abstract, and the class attributes `register` checks) and every
optional hook with the default a game gets when it does not override it. Nothing is
looked up by name at run time, so a hook misspelt in a game is a type error, not a
silently ignored method. Besides the rules, it declares what the service shows of the
game: its title, refusal sentences, static board and its schema, read-model figures and demo.

A game that reads its map or cards from a content pack has rules of type `Bound`, made with
their pack (never without one), and is registered as `Unbound(<rules class>)`: the game
before a pack is chosen, which holds nothing to play. `docs/adding-a-game.md` lists where a
new game goes.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Generic, TypeVar

from domain.core.bots import Bot, base_bots
from domain.core.catalogue import Catalogue
from domain.core.content import Pack, Schema
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Audience, Event
from domain.core.figures import Projector, ScoresOnly
from domain.core.kinds import CORE
from domain.core.notation import Notation
from domain.core.randomness import Randomness
from domain.core.table import OutcomeNeeded, TableRandom

S = TypeVar("S")

Move = Mapping[str, Any]
"""A move as clients send it: a JSON object with a `type` and that type's fields."""


@dataclass(frozen=True)
class Setup:
    """What a game is created with: one name per seat (seat = index) and the options."""

    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DemoPlan:
    """What the demo plays of a game: a finished game of `seats` seats (kept within the
    game's own limits) and a game in progress; and whether the demo's tournaments are played
    at it, at `tournament_level` (the one game that says so; the first that says so)."""

    seats: int = 4
    tournament: bool = False
    tournament_level: str = "greedy"
    """Quick enough for the demo tournaments' 15 tables at start-up, and plays as people do."""


@dataclass(frozen=True)
class Decision(Generic[S]):
    """What a move causes: its events, and the states it passed through (the state before
    it, then the state after each event; the last is the state it reached), so whoever
    stores the events need not evolve them again."""

    events: tuple[Event, ...]
    states: tuple[S, ...]

    def __post_init__(self) -> None:
        if len(self.states) != len(self.events) + 1:
            raise ValueError(f"a decision of {len(self.events)} events passes through {len(self.events) + 1} states, "
                             f"not {len(self.states)}")

    @property
    def state(self) -> S:
        return self.states[-1]


class Decider(ABC, Generic[S]):
    """A game's rules. Subclass it, set the class attributes, implement the abstract
    methods; override an optional hook only to change its default."""

    # --- required ------------------------------------------------------------------------

    name: ClassVar[str]
    """The ruleset name recorded in `GameCreated.data.game`, e.g. `ticket_to_ride`."""
    ruleset_version: ClassVar[str]
    """Bumped whenever a rule changes; old versions stay registered so old games replay."""
    state_type: ClassVar[type[Any]]
    """The class of the game's state, so a snapshot decodes into it (`codec.py`)."""
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    title: ClassVar[str]
    """The game's name in English, as people call it ("Ticket to Ride"), marked for the
    catalogues with `domain.core.words.pgettext_noop("game", ...)` so every shipped language has its own;
    the service shows it wherever the game is named (lobby, replay page, mails, demo)."""

    REQUIRED: ClassVar[tuple[tuple[str, type | tuple[type, ...]], ...]] = (
        ("name", str), ("ruleset_version", str), ("state_type", type), ("min_seats", int), ("max_seats", int),
        ("title", str))
    """The class attributes `missing` checks (the methods are abstract)."""

    @abstractmethod
    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """The full options a game is recorded with (defaults and rulings filled in).
        Raises `MalformedMove` (code `bad_options`) for an unknown or invalid option."""

    @abstractmethod
    def initial_state(self, setup: Setup) -> S:
        """The state before any setup event."""

    @abstractmethod
    def setup(self, state: S, rng: Randomness) -> list[Event]:
        """The opening, as events: shuffles, deals, the first market."""

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """The state after `event`. Returns a new state; never changes `state`."""

    @abstractmethod
    def decide(self, state: S, seat: int, move: Move, rng: Randomness) -> list[Event]:
        """The events `move` by `seat` causes, including the automatic steps it triggers
        (refills, end of game, final scoring). Raises `MalformedMove` or `IllegalMove`."""

    @abstractmethod
    def active_seats(self, state: S) -> frozenset[int]:
        """The seats that may move now (several in a simultaneous phase; none when over)."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[dict[str, Any]]:
        """Every move `seat` may make now, each a complete move body."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Whether the game has ended (no seat is active any more)."""

    @abstractmethod
    def scores(self, state: S) -> dict[int, int]:
        """Each seat's current total."""

    @abstractmethod
    def view(self, state: S, audience: Audience) -> dict[str, Any]:
        """The state as `audience` may see it, as plain JSON; what only seat N may see
        lives under `seats[N]`."""

    @abstractmethod
    def move_of(self, event: Event) -> dict[str, Any] | None:
        """The move a seat's first event of a command records (for re-adjudication)."""

    # --- optional hooks, with their defaults ---------------------------------------------

    def decision(self, state: S, seat: int, move: Move, rng: Randomness) -> Decision[S]:
        """`decide`, with the state after each event. The default folds the events; a game
        whose `decide` evolves as it goes overrides this to hand over what it reached."""
        events = self.decide(state, seat, move, rng)
        states = [state]
        for event in events:
            states.append(self.evolve(states[-1], event))
        return Decision(tuple(events), tuple(states))

    events: ClassVar[Catalogue] = Catalogue()
    """The game's own event kinds. `evolve` sees only these and the core's (`catalogue`)."""

    @property
    def catalogue(self) -> Catalogue:
        """Every kind a record of this game may hold: the core's and the game's own."""
        return _catalogue_of(type(self))

    @property
    def move_schemas(self) -> dict[str, dict[str, Any]]:
        """Move type -> the JSON Schema of its body, published in the OpenAPI document.
        Default: none published (the moves are still checked by `decide`)."""
        return {}

    view_schema: ClassVar[dict[str, Any] | None] = None
    """The JSON Schema of `view` (OpenAPI 3.0's subset), published in the OpenAPI document as
    the type of a state; None: published as an object."""

    def option_schemas(self, seats: int) -> dict[str, dict[str, Any]]:
        """Option -> its JSON Schema (OpenAPI 3.0's subset: `nullable` for null) with its
        `default` for `seats` seats, so a client offers each choice in its own type. An option
        the game records but does not let a game choose (a printed number, a ruling written
        out) is `readOnly`. Default: every option of `options` read-only, typed by its default;
        a game declares its choices by overriding this (`choice` builds one)."""
        return {name: fixed_option(value) for name, value in self.options({}, seats).items()}

    @property
    def notation(self) -> Notation[S]:
        """How this game's moves are written as one line each (`domain/core/notation.py`).
        Default: the generic `Ann: type field=value` form of the move definitions."""
        return Notation()

    def table_setup(self, state: S, observed: Mapping[str, Any]) -> list[Event]:
        """The opening of a game played at a table (`seed_source: "table"`), as it was laid
        out there, checked against the rules of setup; `MalformedMove` or `IllegalMove`
        (`ImpossibleOutcome`) says what is wrong with it. Default: `setup` answered by the
        outcomes listed under `observed["outcomes"]`, in the order setup asks for them."""
        outcomes = observed.get("outcomes", [])
        if not isinstance(outcomes, list):
            raise MalformedMove("bad_setup", "observed setup: `outcomes` is a list of the outcomes setup asks for, in order")
        try:
            return self.setup(state, TableRandom(outcomes))
        except OutcomeNeeded as needed:
            raise MalformedMove("bad_setup", f"observed setup: outcome {needed.used + 1} is missing: "
                                f"{needed.request.describe()}") from None

    def finish(self, state: S) -> dict[int, tuple[int, ...]]:
        """Each seat's order of finish once the game is over, by the game's own official
        tie-breaks: a key per seat, higher finishing ahead, equal keys sharing a place (a
        tournament's places come from these, `domain/tournament/points.py`). Default: the
        score alone, so equal scores share."""
        return {seat: (score,) for seat, score in self.scores(state).items()}

    def invariants(self, state: S) -> list[str]:
        """What is wrong with `state` (cards not conserved, a negative stock...), checked
        after every event of simulated and conformance playouts. Default: nothing."""
        return []

    def playout_choice(self, state: S, seat: int, moves: Sequence[dict[str, Any]],
                       chooser: random.Random) -> dict[str, Any] | None:
        """The move a random playout makes for `seat` among its legal `moves`, to steer
        simulations towards purposeful play. Default None: a uniformly random move."""
        return None

    @property
    def bots(self) -> Mapping[str, Bot]:
        """Level -> the bot that plays this game at that level (`domain/core/bots.py`).
        Default: `random` and `playout` (the game's `playout_choice`); a game adds its
        stronger levels (`greedy`, `planner`) to these."""
        return base_bots(self)

    def adjust(self, state: S, adjustment: Mapping[str, Any]) -> S:
        """The state after a referee's `AdjustmentMade` (`{seat, kind, amount, detail}`),
        or `MalformedMove`/`IllegalMove`. Default: every adjustment is refused."""
        raise IllegalMove("adjustment_unsupported", f"{self.name} does not support referee adjustments; rewind instead.")

    def reveals(self, event: Event) -> bool:
        """Whether a public event showed something hidden (a card turned up from the deck),
        so a takeback past it needs every seat's consent. Events with secrets or random
        outcomes always count. Default: no other event reveals anything."""
        return False

    # --- what the service shows of the game (optional) -----------------------------------

    own_title: ClassVar[str] = ""
    """The name on the game's box, shown beside a translated title (火車嘟嘟); "": `title`."""

    refusals: ClassVar[Mapping[str, str]] = {}
    """Code -> the English sentence of each refusal code the game's rules raise beyond the
    core's, marked for the catalogues with `domain.core.words.N_` (a reader of another
    language gets it translated, its `%(name)s` filled from the error's `params`)."""

    board_schema: ClassVar[dict[str, Any] | None] = None
    """The JSON Schema (OpenAPI 3.0's subset) of `static_board()`'s object, published as the type of
    `GET …/map` for this game. The service adds the fields every board carries (`game_id`,
    `game`, `pack`, `layout`, `names`) to its properties."""

    def static_board(self) -> dict[str, Any] | None:
        """The static half of the board, from the rules bound to a pack: what never changes
        during a game (hexes, cities, routes, tiles), under the ids its moves use, so a client
        can draw it and address it (`GET …/map`, the replay page). Default None: no board."""
        return None

    @property
    def figures(self) -> Projector:
        """How the game's events show on the read models' board, income tracks and VP tallies
        (`domain/core/figures.py`). Default: `ScoresOnly`, VP as `scores` says, no board."""
        return ScoresOnly(self)

    demo: ClassVar[DemoPlan] = DemoPlan()
    """How `caboose serve --demo` shows the game."""

    # --- content packs (optional: a game without `content_schema` reads none) -------------

    content_schema: ClassVar[Schema | None] = None
    """How this game's content packs are read; None for a game without packs (a game with
    packs subclasses `Bound` and is registered as `Unbound`)."""
    pack_option: ClassVar[str] = "content"
    """The game's own option that names its pack, e.g. Ticket to Ride's `map`."""
    default_pack: ClassVar[str] = ""
    """The pack new games are created with when their options name none."""
    pack: Pack | None = None
    """The pack these rules are bound to (recorded in `GameCreated.data.content`): always one
    for `Bound` rules, never for a game without packs."""

    @property
    def module(self) -> str:
        """The module the rules are written in (their package holds the shipped packs)."""
        return type(self).__module__

    # --- checks ---------------------------------------------------------------------------

    @classmethod
    def missing(cls) -> list[str]:
        """What the class lacks of the contract, each as a sentence (empty when complete)."""
        problems = [f"class attribute {attr!r} ({kind.__name__ if isinstance(kind, type) else kind}) is not set"
                    for attr, kind in cls.REQUIRED if not isinstance(getattr(cls, attr, None), kind)]
        problems += [f"method {method!r} is not implemented" for method in sorted(getattr(cls, "__abstractmethods__", ()))]
        if cls.content_schema is not None and not issubclass(cls, Bound):
            problems.append("a game with a content_schema subclasses Bound (its rules are bound to a pack when made)")
        if issubclass(cls, Bound) and (cls.content_schema is None or not cls.default_pack):
            problems.append("rules bound to a pack declare their content_schema and name their default_pack")
        if (cls.static_board is not Decider.static_board) != (cls.board_schema is not None):
            problems.append("a game with a static_board must publish its board_schema, and only such a game")
        return problems


B = TypeVar("B", bound="Bound[Any]")


class Bound(Decider[S]):
    """The rules of a game that reads its map or cards from a content pack, bound to one pack:
    made with it, so `pack` (and whatever the game reads from it) is never absent. Such a game
    is registered as `Unbound(<its class>)`, and the registry binds it to the pack a game
    names (`registry.bind`)."""

    pack: Pack

    def __init__(self, pack: Pack) -> None:
        self.pack = pack

    @classmethod
    def bound_to(cls, pack: Pack) -> Bound[S]:
        """The rules bound to `pack` when a game names it (`Unbound.with_pack`): a game that
        plays only some packs refuses the others here (`RecordError`, `content_unplayable`)."""
        return cls(pack)


class Unbound(Generic[B]):
    """A game that reads content, as registered before any pack is chosen: what is known of
    it without a pack (its name, version, title, seats, options' pack, the schemas of its
    packs and board, its refusals and demo), and `with_pack` for the rules to play. It has
    no rules to play of its own, so nothing can play a game on no pack."""

    def __init__(self, rules: type[B]) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"Unbound({self.rules.__name__})"

    def with_pack(self, pack: Pack) -> B:
        """The rules bound to `pack` (refused by the rules if they cannot play it)."""
        bound = self.rules.bound_to(pack)
        assert isinstance(bound, self.rules)
        return bound

    def missing(self) -> list[str]:
        return self.rules.missing() if issubclass(self.rules, Bound) else [f"{self.rules!r} does not subclass Bound"]

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def ruleset_version(self) -> str:
        return self.rules.ruleset_version

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def own_title(self) -> str:
        return self.rules.own_title

    @property
    def refusals(self) -> Mapping[str, str]:
        return self.rules.refusals

    @property
    def board_schema(self) -> dict[str, Any] | None:
        return self.rules.board_schema

    @property
    def demo(self) -> DemoPlan:
        return self.rules.demo

    @property
    def min_seats(self) -> int:
        return self.rules.min_seats

    @property
    def max_seats(self) -> int:
        return self.rules.max_seats

    @property
    def content_schema(self) -> Schema | None:
        return self.rules.content_schema

    @property
    def pack_option(self) -> str:
        return self.rules.pack_option

    @property
    def default_pack(self) -> str:
        return self.rules.default_pack

    @property
    def module(self) -> str:
        """The module the rules are written in (their package holds the shipped packs)."""
        return self.rules.__module__


Game = Decider[Any] | Unbound[Any]
"""A registered game: rules to play, or a game that reads content before it is bound."""


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"), (dict, "object"))


def fixed_option(value: Any) -> dict[str, Any]:
    """The schema of an option recorded as `value` that a game cannot choose."""
    kind = next((name for python, name in _JSON_TYPES if isinstance(value, python)), None)
    return {**({"type": kind} if kind else {}), "nullable": value is None, "default": value, "readOnly": True}


def choice(kind: str, default: Any, description: str, *, enum: Sequence[Any] | None = None,
           minimum: int | None = None, maximum: int | None = None) -> dict[str, Any]:
    """The schema of an option a game may choose: its JSON `kind`, its `default`, and the
    values allowed (`enum`, which may hold None for "no limit"; or the bounds)."""
    schema: dict[str, Any] = {"type": kind, "default": default, "description": description}
    if enum is not None:
        schema["enum"] = list(enum)
        schema["nullable"] = None in enum
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


@cache
def _catalogue_of(game: type[Decider[Any]]) -> Catalogue:
    # Every record read back asks for it: joined once per rules class, never changed after.
    return CORE + game.events
