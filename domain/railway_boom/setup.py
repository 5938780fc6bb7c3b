"""The opening (setup steps 1-10): decks shuffled, goal and route cards revealed, city tiles,
blocking cubes, the starting bid order from revealed station cards, then round 1 begins."""

from __future__ import annotations

from collections.abc import Sequence

from domain.core.events import Secret
from domain.core.randomness import Randomness, shuffled
from domain.railway_boom import events as ev
from domain.railway_boom import flow
from domain.railway_boom.content import TRACKS, Content
from domain.railway_boom.state import Seat, State
from domain.railway_boom.steps import Steps

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


def setup(content: Content, state: State, rng: Randomness) -> list[ev.Event]:
    steps = Steps(content, state, rng)
    for deck in ("locomotive", "car", "station", "development"):
        order = rng.shuffle(state.decks[deck])
        steps.emit(ev.DeckShuffled(deck=deck, count=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))
    for deck, cards in (("goals", tuple(content.goals)), ("routes", tuple(content.routes))):
        shuffled_cards = rng.shuffle(cards)
        revealed = tuple(rng.draw(shuffled_cards, min(4, len(cards)), REVEALED[deck]))
        # The rest go back to the box unseen; a seeded shuffle's top 4 are the revealed ones,
        # so its stored order is unchanged.
        order = [*revealed, *_less(shuffled_cards, revealed)]
        steps.emit(ev.CardsRevealedBeside(deck=deck, revealed=revealed, random=shuffled(order)["random"],
                                          automatic=True))
    _city_tiles(steps, rng)
    if state.players < 4:
        blocked = {g: content.goals[g].blocked[state.players] for g in steps.state.goals}
        steps.emit(ev.GoalSpacesBlocked(spaces=blocked, automatic=True))
    drawn = steps.draw("station", state.players, STARTING)
    numbers = {seat: content.station_cards[card].number for seat, card in enumerate(drawn)}
    ranked = tuple(sorted(numbers, key=lambda seat: numbers[seat]))
    steps.emit(ev.StartingOrderDrawn(cards={str(seat): card for seat, card in enumerate(drawn)}, order=ranked, automatic=True))
    flow.start_round(steps, 1)
    flow.advance(steps, rng)
    return steps.events


def _city_tiles(steps: Steps, rng: Randomness) -> None:
    content = steps.content
    if steps.state.first_game:
        layout = {h.id: h.first_game_tile for h in content.hexes.values() if h.city == "normal"}
        steps.emit(ev.CityTilesPlaced(spaces="normal", tiles=layout, automatic=True))
        return
    for kind in ("normal", "tourist"):
        spaces = [h.id for h in content.hexes.values() if h.city == kind]
        shuffled_tiles = rng.shuffle([t.id for t in content.city_tiles.values() if t.kind == kind])
        # Tiles are turned up space by space, in the board's order of its city spaces.
        placed = rng.draw(shuffled_tiles, min(len(spaces), len(shuffled_tiles)), CITY_TILES[kind])
        dealt = [*placed, *_less(shuffled_tiles, placed)]
        steps.emit(ev.CityTilesPlaced(spaces=kind, tiles=dict(zip(spaces, placed, strict=False)),
                                      random=shuffled(dealt)["random"], automatic=True))


def _less(items: Sequence[str], gone: Sequence[str]) -> list[str]:
    out = list(items)
    for item in gone:
        out.remove(item)
    return out
