"""Forming a round's tables: who plays, at how many tables of which sizes, who sits where.

- **Table sizes** (`split`): as many tables as the preferred size needs, the players spread
  as evenly as the sizes the game allows let them (short tables at the bottom); when no
  spread fits, the last players in the round's order get a bye, one at a time.
- **Heats**: the entrants in the round's draw (from the secret), in consecutive tables.
- **Semifinal**: the advancing players in snake order over the tables (1st, 2nd ... then
  back), so each table has a fair share of the strongest.
- **Final**: one table of the semifinal's winners, filled by the best of the rest.
- **Swiss**: the players by standing (the first round by draw, or by rating), tables
  formed by standing while avoiding players meeting again: the assignment is a `Solver`
  handed in (the service's runs a min-cost flow, `service/tournament/assign.py`); the
  domain checks what it answers.
- **Schedule**: every round of the season at once, each avoiding meetings of the earlier ones.

Every table's seat order and seed come from the secret (`fairness.py`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, pairwise
from math import factorial

from domain.core.errors import IllegalMove
from domain.tournament import events as ev
from domain.tournament import fairness
from domain.tournament.standings import ordered
from domain.tournament.state import Tournament

Pair = frozenset[str]


@dataclass(frozen=True)
class Problem:
    """Seat `order` (best standing first) at tables of `sizes` (top table first), avoiding
    pairs that met before (`met`: how often each pair met). With `by_standing`, a player
    should sit as near its place in the order as the repeats allow; without, anywhere."""

    order: tuple[str, ...]
    sizes: tuple[int, ...]
    met: Mapping[Pair, int] = field(default_factory=dict)
    by_standing: bool = True


Solver = Callable[[Problem], Sequence[Sequence[str]]]
"""Answers a `Problem` with the players of each table, in the order of `sizes`."""


def consecutive(problem: Problem) -> list[tuple[str, ...]]:
    """Tables of consecutive players in the order: the heats' tables, and a Swiss round's
    before any repeat is avoided."""
    tables, start = [], 0
    for size in problem.sizes:
        tables.append(problem.order[start:start + size])
        start += size
    return tables


@dataclass(frozen=True)
class PlannedTable:
    table: int
    seats: tuple[str, ...]
    seed: bytes | None


@dataclass(frozen=True)
class Plan:
    round: int
    stage: str
    order: tuple[str, ...]
    byes: tuple[str, ...]
    repeats: int
    tables: tuple[PlannedTable, ...]

    def paired(self) -> ev.RoundPaired:
        return ev.RoundPaired(round=self.round, stage=self.stage, order=self.order, byes=self.byes, repeats=self.repeats)


def split(count: int, preferred: int, allowed: Sequence[int]) -> tuple[int, ...] | None:
    """Table sizes for `count` players, largest first, or None when the sizes allowed cannot hold them."""
    low, high = min(allowed), max(allowed)
    if count < low:
        return None
    tables = -(-count // preferred)
    for n in range(tables, 0, -1):
        size, extra = divmod(count, n)
        if low <= size and size + (extra > 0) <= high:
            return tuple([size + 1] * extra + [size] * (n - extra))
    return None


def fitted(order: Sequence[str], preferred: int, allowed: Sequence[int]) -> tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]:
    """(players seated, table sizes, byes): the last players in `order` get a bye until the rest fit."""
    players = list(order)
    byes: list[str] = []
    while players:
        sizes = split(len(players), preferred, allowed)
        if sizes is not None:
            return tuple(players), sizes, tuple(reversed(byes))
        byes.append(players.pop())
    raise IllegalMove("too_few_players", f"Too few players for one table: {len(order)} entered, a table needs "
                      f"at least {min(allowed)}.", {"players": len(order), "least": min(allowed)})


def met(state: Tournament, extra: Sequence[Sequence[str]] = ()) -> Counter[Pair]:
    """How often each pair of players sat at one table (and at `extra` tables)."""
    counts: Counter[Pair] = Counter()
    for seats in [*(t.seats for t in state.tables), *extra]:
        counts.update(frozenset(pair) for pair in combinations(seats, 2))
    return counts


def repeats(tables: Sequence[Sequence[str]], before: Mapping[Pair, int]) -> int:
    """Pairs seated together here who had met before."""
    return sum(1 for seats in tables for pair in combinations(seats, 2) if before.get(frozenset(pair), 0))


def met_twice(state: Tournament) -> int:
    """Pairs of players who sat together more than once."""
    return sum(1 for n in met(state).values() if n > 1)


def least_met_twice(state: Tournament, stage: str = ev.ROUND) -> int:
    """A lower bound on the pairs who had to meet more than once in the rounds of `stage`
    as they were played (their players and table counts), the larger of two counts:
    - the meetings beyond the `n * (n - 1) / 2` pairs there are, each repeated pair taking at
      most one meeting a round beyond its first;
    - for each round, the pairs of one table of the round before that must meet again: a
      table of the round before whose k players spread over the round's T tables as evenly
      as can be still puts some of them together (k = 5, T = 3: at least 2 pairs)."""
    rounds = [[t.seats for t in state.round_tables(r.number)] for r in state.rounds if r.stage == stage]
    if len(rounds) < 2:
        return 0
    players = len({p for tables in rounds for seats in tables for p in seats})
    meetings = sum(len(s) * (len(s) - 1) // 2 for tables in rounds for s in tables)
    counted = max(0, -(-(meetings - players * (players - 1) // 2) // (len(rounds) - 1)))
    spread = 0
    for before, now in pairwise(rounds):
        playing = {p for seats in now for p in seats}
        forced = 0
        for seats in before:
            together, spare = divmod(sum(1 for p in seats if p in playing), len(now))
            forced += spare * (together + 1) * together // 2 + (len(now) - spare) * together * (together - 1) // 2
        spread = max(spread, forced)
    return max(counted, spread)


SEARCH_LIMIT = 20_000
"""At most this many seatings are tried by `least_met_twice_searched`."""


def stage_rounds(state: Tournament, stage: str) -> list[list[tuple[str, ...]]]:
    """The tables of each round of `stage`, as played."""
    return [[t.seats for t in state.round_tables(r.number)] for r in state.rounds if r.stage == stage]


def twice(rounds: Sequence[Sequence[Sequence[str]]]) -> int:
    """Pairs who sat together more than once in these rounds."""
    counts: Counter[Pair] = Counter(frozenset(pair) for tables in rounds for seats in tables
                                    for pair in combinations(seats, 2))
    return sum(1 for n in counts.values() if n > 1)


def least_met_twice_searched(state: Tournament, stage: str = ev.ROUND) -> int | None:
    """The least number of pairs who must meet more than once in the rounds of `stage`, their
    players and table sizes as played, found by trying every seating (the first round's as
    played when every round has the same players: any other is the same up to names); None
    when there are more than `SEARCH_LIMIT` seatings to try."""
    rounds = stage_rounds(state, stage)
    shape = tuple((tuple(sorted(p for seats in tables for p in seats)), tuple(sorted(len(s) for s in tables)))
                  for tables in rounds)
    if len(rounds) < 2:
        return 0
    same = len({players for players, _ in shape}) == 1
    return _searched(shape, tuple(tuple(sorted(s)) for s in rounds[0]) if same else None)


@cache
def _searched(shape: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...],
              first: tuple[tuple[str, ...], ...] | None) -> int | None:
    free = shape[1:] if first is not None else shape
    total = 1
    for players, sizes in free:
        total *= _seatings(len(players), sizes)
        if total > SEARCH_LIMIT:
            return None
    options = [list(_partitions(players, sizes)) for players, sizes in free]
    best = [1 + sum(size * (size - 1) // 2 for _, sizes in shape for size in sizes)]

    def search(index: int, counts: Counter[Pair], found: int) -> None:
        if found >= best[0]:
            return
        if index == len(options):
            best[0] = found
            return
        for tables in options[index]:
            pairs = [frozenset(pair) for seats in tables for pair in combinations(seats, 2)]
            more = sum(1 for pair in pairs if counts[pair] == 1)
            counts.update(pairs)
            search(index + 1, counts, found + more)
            counts.subtract(pairs)

    start: Counter[Pair] = Counter(frozenset(pair) for seats in first or () for pair in combinations(seats, 2))
    search(0, start, 0)
    return best[0]


def _seatings(count: int, sizes: Sequence[int]) -> int:
    """How many ways `count` players sit at tables of `sizes` (tables of one size alike)."""
    ways = factorial(count)
    for size in sizes:
        ways //= factorial(size)
    for repeated in Counter(sizes).values():
        ways //= factorial(repeated)
    return ways


def _partitions(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every seating of `players` at tables of `sizes`, tables of one size alike."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tables in _partitions(remaining, left):
                yield [(first, *others), *tables]


def round_draw(secret: bytes, round_: int, players: Sequence[str]) -> tuple[str, ...]:
    """The players in the order of a heat's own draw."""
    return tuple(sorted(players, key=lambda p: fairness.derived(secret, use="heat", round=round_, player=p)))


def first_order(state: Tournament, players: Sequence[str]) -> tuple[str, ...]:
    """The first round's order: by draw, or by rating (highest first, the draw breaking ties)."""
    entered = [state.players[p] for p in players]
    if state.format.seeding == "rating":
        entered.sort(key=lambda p: (-(p.rating if p.rating is not None else float("-inf")), p.draw))
    else:
        entered.sort(key=lambda p: p.draw)
    return tuple(p.name for p in entered)


def swiss_order(state: Tournament, number: int) -> tuple[str, ...]:
    """A Swiss round's order: the first round's (`first_order`), then the standing."""
    if number == 1:
        return first_order(state, state.active())
    return tuple(r.player for r in ordered(state, state.active()))


def snake(order: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
    """Deal `order` over tables of `sizes` in snake order (1, 2, ..., n, n, ..., 1, 1, ...)."""
    tables: list[list[str]] = [[] for _ in sizes]
    forward, index = True, 0
    for player in order:
        while True:
            open_ = [i for i, size in enumerate(sizes) if len(tables[i]) < size]
            span = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
            candidates = [i for i in span if i in open_]
            pick = next((i for i in candidates if (i >= index if forward else i <= index)), None)
            if pick is not None:
                tables[pick].append(player)
                index = pick + 1 if forward else pick - 1
                break
            forward = not forward
            index = 0 if forward else len(sizes) - 1
    return [tuple(t) for t in tables]


def seated(state: Tournament, secret: bytes, round_: int, stage: str, order: Sequence[str], byes: Sequence[str],
           tables: Sequence[Sequence[str]], before: Mapping[Pair, int]) -> Plan:
    """A round's plan: each table's seat order and seed derived from the secret."""
    physical = state.created.seed_source == "table"
    planned = tuple(PlannedTable(number, fairness.seating(secret, round_, number, players),
                                 None if physical else fairness.table_seed(secret, round_, number))
                    for number, players in enumerate(tables, start=1))
    return Plan(round_, stage, tuple(order), tuple(byes), repeats(tables, before), planned)


def checked(answer: Sequence[Sequence[str]], problem: Problem) -> list[tuple[str, ...]]:
    """The solver's tables, refused unless they seat every player of the problem once at
    tables of its sizes."""
    tables = [tuple(t) for t in answer]
    if [len(t) for t in tables] != list(problem.sizes) or sorted(p for t in tables for p in t) != sorted(problem.order):
        raise ValueError("the assignment solver did not seat every player once at tables of the sizes asked")
    return tables


def advancing(state: Tournament, stage: str) -> tuple[str, ...]:
    """Heats: who plays in the semifinal or the final, best first."""
    fmt, still_in = state.format, set(state.active())
    heats = [r for r in ordered(state) if r.player in still_in and r.games > 0]
    if stage == ev.SEMIFINAL:
        return tuple(r.player for r in heats[:fmt.semifinal])
    semis = [t for t in state.tables if t.stage == ev.SEMIFINAL]
    if not semis:
        return tuple(r.player for r in heats[:fmt.final])
    rank = {r.player: i for i, r in enumerate(heats)}
    entries = []
    for table in semis:
        assert table.result is not None
        places = table.result.places
        seats = [p for p in table.seats if p in still_in]
        # A shared first place goes to the better of the heats' ladder.
        seats.sort(key=lambda p: (places[table.seats.index(p)], rank.get(p, len(rank))))
        entries += [(0 if i == 0 else 1, places[table.seats.index(p)], rank.get(p, len(rank)), p)
                    for i, p in enumerate(seats)]
    return tuple(p for *_, p in sorted(entries)[:fmt.final])
