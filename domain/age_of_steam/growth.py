"""New goods (`docs/rules/age_of_steam.md`, "9. Goods growth"; cases 61–63): the Production
action's two cubes, drawn from the bag and placed by its holder on empty display spaces, then
the growth dice, each moving the top cube of its display column to its city."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.age_of_steam.board import DARK, LIGHT
from domain.age_of_steam.events import Outcome, PhaseBegan, outcome
from domain.age_of_steam.goods import draw
from domain.age_of_steam.ledger import Handlers, add_cube, drawn, pop, set_space
from domain.age_of_steam.moves import PlaceProduction
from domain.age_of_steam.state import PRODUCTION, PRODUCTION_ACTION, State
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.core.state import replace

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps

PRODUCTION_DRAW = 2

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ProductionDrawn(Event):
    """A cube drawn from the bag for the Production action's holder to place."""

    seat: int
    cube: str
    random: Outcome


@dataclass(frozen=True, kw_only=True)
class GoodsProduced(Event):
    """The Production holder placed a drawn cube on an empty space of the goods display."""

    seat: int
    cube: str
    column: str
    space: int


@dataclass(frozen=True, kw_only=True)
class GrowthDieRolled(Event):
    """One goods growth die rolled, for the light or the dark cities."""

    half: str
    index: int
    value: int
    random: Outcome


@dataclass(frozen=True, kw_only=True)
class GoodsGrown(Event):
    """The top cube of a goods display column moved to its city."""

    half: str
    die: int
    column: str
    space: int
    hex: str
    city: str
    cube: str


# --- production ---------------------------------------------------------------------------


def draw_production(steps: Steps, rng: Randomness) -> bool:
    """Two cubes for the Production holder (no more than the display has room for); False
    when there is no holder or nothing to draw, and goods growth follows at once."""
    state = steps.state
    holder = state.actions.get(PRODUCTION_ACTION)
    empty = sum(cube is None for spaces in state.display.values() for cube in spaces)
    count = min(PRODUCTION_DRAW, empty, sum(state.bag.values())) if holder in state.order else 0
    if holder is None or count == 0:
        return False
    for _ in range(count):
        cube, stored = draw(steps.state.bag, rng, "production: a goods cube from the bag")
        steps.emit(ProductionDrawn(seat=holder, cube=cube, random=stored))
    steps.emit(PhaseBegan(phase=PRODUCTION, queue=(holder,) * count))
    return True


def check_production(state: State, command: PlaceProduction) -> None:
    if state.display[command.column][command.space] is not None:
        raise IllegalMove("space_taken", f"Space {command.space} of column {command.column} already holds a good.")


def legal_moves(state: State) -> list[dict[str, Any]]:
    return [
        {"type": "place_production", "column": column, "space": space}
        for column, spaces in state.display.items()
        for space, cube in enumerate(spaces)
        if cube is None
    ]


def place_production(steps: Steps, seat: int, command: PlaceProduction) -> None:
    state = steps.state
    check_production(state, command)
    steps.moved(GoodsProduced(seat=seat, cube=state.production[0], column=command.column, space=command.space))


# --- goods growth -------------------------------------------------------------------------


def goods_growth(steps: Steps, rng: Randomness) -> None:
    """N light and N dark dice (N: the players at the start); a die k moves a cube from
    numbered column k to city k, and from the lettered column it feeds to its new city."""
    steps.emit(PhaseBegan(phase="goods_growth", queue=()))
    map_ = steps.map
    for half in (LIGHT, DARK):
        faces = rng.roll(len(steps.state.seats), f"goods growth: {half} dice")
        for index, face in enumerate(faces):
            steps.emit(GrowthDieRolled(half=half, index=index, value=face, random=outcome(6, face - 1)))
        for face in faces:
            _grow(steps, half, face, f"{'L' if half == LIGHT else 'D'}{face}", map_.city_of_number[(half, face)])
            letter = map_.letter_of_die.get((half, face))
            if letter is not None:
                city = map_.column_city(letter, steps.state.new_cities)
                if city is not None:
                    _grow(steps, half, face, letter, city)


def _grow(steps: Steps, half: str, face: int, column: str, city: str) -> None:
    spaces = steps.state.display[column]
    # Ruling 3: the top cube of the column leaves first; an empty column gives nothing.
    space = next((i for i, cube in enumerate(spaces) if cube is not None), None)
    if space is None:
        return
    cube = spaces[space]
    assert cube is not None
    steps.emit(GoodsGrown(half=half, die=face, column=column, space=space, hex=city,
                          city=steps.map.place_name(city, steps.state.new_cities), cube=cube))


# --- the events applied -------------------------------------------------------------------


def _production_drawn(state: State, event: ProductionDrawn) -> State:
    colour, bag = drawn(state, event.random)
    return replace(state, bag=bag, production=(*state.production, colour))


def _produced(state: State, event: GoodsProduced) -> State:
    display = set_space(state.display, event.column, event.space, state.production[0])
    return pop(replace(state, display=display, production=state.production[1:]), event.seat)


def _unchanged(state: State, event: GrowthDieRolled) -> State:
    return state


def _grown(state: State, event: GoodsGrown) -> State:
    cube = state.display[event.column][event.space]
    assert cube is not None
    display = set_space(state.display, event.column, event.space, None)
    return replace(state, display=display, cubes=add_cube(state.cubes, event.hex, cube))


APPLY: Handlers = {ProductionDrawn: _production_drawn, GoodsProduced: _produced, GrowthDieRolled: _unchanged, GoodsGrown: _grown}
KINDS = tuple(APPLY)
