"""The opening (`docs/rules/railway_boom.md`, setup steps 1-10; R4), read top to bottom: the
events, the state a game starts from, the opening they record (decks shuffled, goal and route
cards revealed, city tiles, blocking cubes, the starting bid order from revealed station
cards), and how each event changes the state. Round 1 follows (`flow`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.events import Event, Secret
from domain.core.randomness import Randomness, shuffled
from domain.core.state import replace
from domain.railway_boom.content import TRACKS, Content
from domain.railway_boom.ledger import Handlers, shuffle_order, without
from domain.railway_boom.state import BLOCKED, FREE, Seat, State

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DeckShuffled(Event):
    """A deck was shuffled face down; the order is a secret for referees (its `random`)."""

    deck: str
    count: int


@dataclass(frozen=True, kw_only=True)
class CardsRevealedBeside(Event):
    """The goal or route cards were shuffled and the first 4 revealed; the rest are boxed."""

    deck: str
    revealed: tuple[str, ...]
    random: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class CityTilesPlaced(Event):
    """City tiles of one kind on their spaces: the pack's first-game layout, or dealt at
    random (R4)."""

    spaces: str
    tiles: dict[str, str]
    random: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class GoalSpacesBlocked(Event):
    """With 2-3 players, cubes of an unused colour block goal spaces (setup step 6)."""

    spaces: dict[str, tuple[int, ...]]


@dataclass(frozen=True, kw_only=True)
class StartingOrderDrawn(Event):
    """Each seat revealed a station card; the highest number sits right-most (setup 8)."""

    cards: dict[str, str]
    order: tuple[int, ...]


# --- the opening --------------------------------------------------------------------------

# What each draw of the opening is called at a table (`rng.draw`'s `what`).
REVEALED = {"goals": "goal cards revealed beside the board", "routes": "route cards revealed beside the board"}
CITY_TILES = {"normal": "normal city tiles, one per normal city space in board order",
              "tourist": "tourist city tiles, one per tourist city space in board order"}
STARTING = "station cards revealed for the starting bid order, one per seat"


def initial(content: Content, players: int, first_game: bool) -> State:
    seats = tuple(Seat(colour=card.colour, resources=dict.fromkeys(("money", "materials", "technology", "coal"),
                                                                    content.start_resources),
                       income=dict.fromkeys(TRACKS, 1), rails=content.rails, stations=content.stations,
                       scored={}, trains=(card.id,), tiles=dict.fromkeys(TRACKS, 0))
                  for card in content.starting()[:players])
    # Every card starts in a deck in printed order, so every card is accounted for (the
    # invariants) before the first shuffle.
    decks = {"locomotive": content.of_kind("locomotive"), "car": content.of_kind("car"),
             "station": tuple(content.station_cards), "development": tuple(content.developments),
             "goals": tuple(content.goals), "routes": tuple(content.routes)}
    unused = tuple(card.id for card in content.starting()[players:])
    return State(seats=seats, first_game=first_game, decks=decks, boxed=unused,
                 tile_supply=dict.fromkeys(TRACKS, content.tiles_per_kind))


def opening(steps: Steps, rng: Randomness) -> None:
    content, state = steps.content, steps.state
    for deck in ("locomotive", "car", "station", "development"):
        order = rng.shuffle(state.decks[deck])
        steps.emit(DeckShuffled(deck=deck, count=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))
    for deck, cards in (("goals", tuple(content.goals)), ("routes", tuple(content.routes))):
        shuffled_cards = rng.shuffle(cards)
        revealed = tuple(rng.draw(shuffled_cards, min(4, len(cards)), REVEALED[deck]))
        # The rest go back to the box unseen; a seeded shuffle's top 4 are the revealed ones,
        # so its stored order is unchanged.
        order = [*revealed, *_less(shuffled_cards, revealed)]
        steps.emit(CardsRevealedBeside(deck=deck, revealed=revealed, random=shuffled(order)["random"],
                                       automatic=True))
    _city_tiles(steps, rng)
    if state.players < 4:
        blocked = {g: content.goals[g].blocked[state.players] for g in steps.state.goals}
        steps.emit(GoalSpacesBlocked(spaces=blocked, automatic=True))
    drawn = steps.draw("station", state.players, STARTING)
    numbers = {seat: content.station_cards[card].number for seat, card in enumerate(drawn)}
    ranked = tuple(sorted(numbers, key=lambda seat: numbers[seat]))
    steps.emit(StartingOrderDrawn(cards={str(seat): card for seat, card in enumerate(drawn)}, order=ranked, automatic=True))


def _city_tiles(steps: Steps, rng: Randomness) -> None:
    content = steps.content
    if steps.state.first_game:
        layout = {h.id: h.first_game_tile for h in content.hexes.values() if h.city == "normal"}
        steps.emit(CityTilesPlaced(spaces="normal", tiles=layout, automatic=True))
        return
    for kind in ("normal", "tourist"):
        spaces = [h.id for h in content.hexes.values() if h.city == kind]
        shuffled_tiles = rng.shuffle([t.id for t in content.city_tiles.values() if t.kind == kind])
        # Tiles are turned up space by space, in the board's order of its city spaces.
        placed = rng.draw(shuffled_tiles, min(len(spaces), len(shuffled_tiles)), CITY_TILES[kind])
        dealt = [*placed, *_less(shuffled_tiles, placed)]
        steps.emit(CityTilesPlaced(spaces=kind, tiles=dict(zip(spaces, placed, strict=False)),
                                   random=shuffled(dealt)["random"], automatic=True))


def _less(items: Sequence[str], gone: Sequence[str]) -> list[str]:
    out = list(items)
    for item in gone:
        out.remove(item)
    return out


# --- the events applied -------------------------------------------------------------------


def _deck_shuffled(c: Content, s: State, e: DeckShuffled) -> State:
    return replace(s, decks={**s.decks, e.deck: shuffle_order(e)})


def _beside(c: Content, s: State, e: CardsRevealedBeside) -> State:
    everything = tuple(e.random["shuffle"])
    boxed = (*s.boxed, *everything[len(e.revealed):])
    s = replace(s, decks={**s.decks, e.deck: ()})
    if e.deck == "goals":
        return replace(s, goals=e.revealed, boxed=boxed,
                       spaces={g: (FREE,) * len(c.goals[g].multipliers) for g in e.revealed})
    return replace(s, routes=e.revealed, boxed=boxed)


def _blocked(c: Content, s: State, e: GoalSpacesBlocked) -> State:
    spaces = {g: tuple(BLOCKED if i in e.spaces.get(g, ()) else v for i, v in enumerate(row)) for g, row in s.spaces.items()}
    return replace(s, spaces=spaces)


def _tiles_placed(c: Content, s: State, e: CityTilesPlaced) -> State:
    return replace(s, city_tiles={**s.city_tiles, **e.tiles})


def _starting_order(c: Content, s: State, e: StartingOrderDrawn) -> State:
    used = tuple(e.cards.values())
    return replace(s, order=e.order, decks={**s.decks, "station": without(s.decks["station"], *used)}, boxed=(*s.boxed, *used))


APPLY: Handlers = {DeckShuffled: _deck_shuffled, CardsRevealedBeside: _beside, CityTilesPlaced: _tiles_placed,
                   GoalSpacesBlocked: _blocked, StartingOrderDrawn: _starting_order}
KINDS = tuple(APPLY)
