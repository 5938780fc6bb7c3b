"""A tournament's event kinds: the record of an event of many tables.

A tournament's record is a FORMAT.md record like a game's (the same ten fields, the same
hash chain), with `tournament_id` where a game's has `game_id`. Each kind's docstring opens
with its meaning; `docs/tournaments.md` lists them with their fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.core.catalogue import Catalogue
from domain.core.events import Event, means
from domain.core.kinds import PinnedPack

HEATS, SWISS, SCHEDULE = "heats", "swiss", "schedule"
FORMATS = (HEATS, SWISS, SCHEDULE)
HEAT, SEMIFINAL, FINAL, ROUND = "heat", "semifinal", "final", "round"
"""The stages a round belongs to: a heat, the semifinal, the final (heats); a round (Swiss, schedule)."""
FORFEIT, BOT = "forfeit", "bot"
"""How a withdrawn player's running games go on: forfeited (last place), or played by a bot as
the player's own."""


@dataclass(frozen=True)
class Format:
    """How the field is played: the format, its rounds and the tables it prefers."""

    kind: str
    rounds: int
    table_size: int
    semifinal: int = 0
    """Heats: how many players advance to the semifinal (0: none, the best go to the final)."""
    final: int = 0
    """Heats: the final table's size."""
    seeding: str = "draw"
    """The first round's order: `draw` (the tournament's draw) or `rating` (ratings at registration)."""


@dataclass(frozen=True)
class Scoring:
    """Tournament points by place and the ladder of tie-breaks between players level on them."""

    place_points: tuple[float, ...]
    tie_breaks: tuple[str, ...]
    bye_points: float


@dataclass(frozen=True, kw_only=True)
class TournamentCreated(Event):
    """A tournament was created: its game, format, scoring and the commitment to its secret.

    Always the first record of a tournament. Every table's seed and seat order, and every
    player's draw, are derived from the secret committed to here (`fairness.py`)."""

    name: str = field(metadata=means("The tournament's name."))
    game: str = field(metadata=means("The ruleset every table plays, e.g. age_of_steam."))
    ruleset_version: str = field(metadata=means("The version of the rules the tables are created with."))
    content: PinnedPack | None = field(metadata=means("The content pack every table plays with, pinned by its digest."))
    options: dict[str, Any] = field(metadata=means("The game options every table is created with (as asked)."))
    format: Format = field(metadata=means("The format: heats, swiss or schedule, its rounds and table sizes."))
    scoring: Scoring = field(metadata=means("Points per place, the tie-break ladder and a bye's points."))
    table_sizes: tuple[int, ...] = field(metadata=means("The table sizes the game allows, smallest first."))
    commitment: str = field(metadata=means("SHA-256 of the tournament's secret, revealed by SecretRevealed at the end."))
    seed_source: str = field(metadata=means(
        "Where the tables' random outcomes come from: `server` (seeds derived from the secret) or `table` "
        "(physical components: the commitment covers the seating only)."))
    move_deadline: int | None = field(metadata=means("Seconds a seat may take over a move before a bot moves for it, or null."))


@dataclass(frozen=True, kw_only=True)
class PlayerRegistered(Event):
    """A player entered the tournament (late: after the first round was paired)."""

    player: str = field(metadata=means("The player's name, unique in the tournament."))
    draw: str = field(metadata=means("The player's draw, derived from the secret and the name: the last tie-break."))
    rating: float | None = field(metadata=means("The player's rating in this game when registered, or null."))
    late: bool = field(metadata=means("Whether a round had already been paired."))


@dataclass(frozen=True, kw_only=True)
class PlayerWithdrawn(Event):
    """A player left the tournament: paired no more; running games forfeited or kept by a bot."""

    player: str = field(metadata=means("The player's name."))
    how: str = field(metadata=means("`forfeit` (last place in running games) or `bot` (a bot keeps the seat)."))
    level: str | None = field(metadata=means("The bot's level when a bot keeps the seat."))
    reason: str = field(metadata=means("Why, in the referee's words."))
    referee: str = field(metadata=means("The referee who recorded it."))


@dataclass(frozen=True, kw_only=True)
class RoundPaired(Event):
    """A round was paired: the order it was paired in, its byes, and how many meetings repeat."""

    round: int = field(metadata=means("The round's number, from 1."))
    stage: str = field(metadata=means("heat, semifinal, final (heats) or round (swiss, schedule)."))
    order: tuple[str, ...] = field(metadata=means("The players paired, in the order the tables were formed from."))
    byes: tuple[str, ...] = field(metadata=means("Players left out of this round for want of a table."))
    repeats: int = field(metadata=means("Pairs seated together this round who had met before."))


@dataclass(frozen=True, kw_only=True)
class TableSeated(Event):
    """A table of a round: its players in seat order and its game, created with its derived seed."""

    round: int = field(metadata=means("The round."))
    table: int = field(metadata=means("The table's number in its round, from 1."))
    seats: tuple[str, ...] = field(metadata=means("The players in seat order (seat 0 first)."))
    game_id: str | None = field(metadata=means(
        "The table's game; null at a physical table until its opening is entered (TableOpened)."))
    seed_commitment: str | None = field(metadata=means(
        "The commitment in the game's GameCreated: SHA-256 of the table's derived seed (null at a physical table)."))


@dataclass(frozen=True, kw_only=True)
class TableOpened(Event):
    """A physical table's game was made from its opening as laid out there, its players in the table's seat order."""

    round: int = field(metadata=means("The round."))
    table: int = field(metadata=means("The table."))
    game_id: str = field(metadata=means("The table's game, transcribed from the table (seed source `table`)."))


@dataclass(frozen=True, kw_only=True)
class TableFinished(Event):
    """A table's game ended: each seat's place, score and the game's own order of finish."""

    round: int = field(metadata=means("The round."))
    table: int = field(metadata=means("The table."))
    game_id: str = field(metadata=means("The table's game."))
    places: tuple[int, ...] = field(metadata=means("Each seat's place (1 first; seats level share one), seat 0 first."))
    scores: tuple[int, ...] = field(metadata=means("Each seat's final score, seat 0 first."))
    finish: tuple[tuple[int, ...], ...] = field(metadata=means(
        "Each seat's key in the game's own order of finish (higher ahead): score and the game's tie-breaks."))
    forfeited: tuple[int, ...] = field(metadata=means("Seats whose players withdrew with a forfeit: placed last."))
    version: int = field(metadata=means("The game's version when it ended."))
    head: str = field(metadata=means("The hash of the game's last record then."))


@dataclass(frozen=True, kw_only=True)
class ResultRuled(Event):
    """A referee's ruling changed a table's result: the places that stand from now on."""

    round: int = field(metadata=means("The round."))
    table: int = field(metadata=means("The table."))
    game_id: str = field(metadata=means("The table's game."))
    places: tuple[int, ...] = field(metadata=means("Each seat's place as ruled, seat 0 first."))
    reason: str = field(metadata=means("Why, in the referee's words."))
    referee: str = field(metadata=means("The referee who ruled."))
    dispute: int | None = field(metadata=means("The version of the DisputeRaised in the table's game this settles, or null."))
    paired_since: tuple[int, ...] = field(metadata=means(
        "Rounds paired after the table's round, which stand as paired: nothing is re-paired."))


@dataclass(frozen=True, kw_only=True)
class TournamentFinished(Event):
    """The last table ended: the final standing."""

    standing: tuple[str, ...] = field(metadata=means("Every player, first place first."))


@dataclass(frozen=True, kw_only=True)
class SecretRevealed(Event):
    """The tournament ended and its secret is public: every seed, seat order and draw can be re-derived."""

    revealed: str = field(metadata=means("The secret, as hex digits; its SHA-256 is the creation's commitment.",
                                         key="secret"))


EVENTS = Catalogue(TournamentCreated, PlayerRegistered, PlayerWithdrawn, RoundPaired, TableSeated, TableOpened, TableFinished,
                   ResultRuled, TournamentFinished, SecretRevealed, name="tournament")
