"""The assignment of players to a Swiss round's tables (`domain/tournament/pairing.py`'s
`Solver`), by networkx's min-cost flow.

Meeting again costs a pair far more than any move away from a player's place in the
standing, so the tables are formed by standing except where that would seat players who
met before together. The tables start as consecutive groups of the standing; then, one
"layer" at a time (the best player of every table, then the second best, ...), that
layer's players are taken up and put back by a min-cost flow, each into one of the tables
that lost one: a player's cost at a table is `MEETING` for every player there it met
before, plus its distance from the table's place in the standing. Each flow is optimal for
its layer given the rest, so a sweep never makes the whole worse; sweeps stop when one
changes nothing or no pair meets again. Without standing (a schedule's season) only the
meetings count.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournament.pairing import Pair, Problem, consecutive

MEETING = 1_000_000
"""What seating a pair who met before costs, beyond any distance in the standing."""
SWEEPS = 8
WINDOW = 4
"""Tables either side of its own a player may move to (any, when it meets someone again at its own)."""


def solve(problem: Problem) -> list[tuple[str, ...]]:
    tables = [list(t) for t in consecutive(problem)]
    rank = {player: i for i, player in enumerate(problem.order)}
    centre, start = [], 0
    for size in problem.sizes:
        centre.append(2 * start + size - 1)  # twice the mean of the table's places in the standing
        start += size
    met = problem.met

    def meetings(player: str, others: Sequence[str]) -> int:
        return sum(1 for other in others if met.get(Pair((player, other)), 0))

    def cost(player: str, table: int, others: Sequence[str]) -> int:
        distance = abs(2 * rank[player] - centre[table]) if problem.by_standing else 0
        return MEETING * meetings(player, others) + distance

    def clashes() -> int:
        return sum(meetings(p, t[i + 1:]) for t in tables for i, p in enumerate(t))

    if not met or not clashes():
        return [tuple(t) for t in tables]
    for _ in range(SWEEPS):
        changed = False
        for layer in range(max(problem.sizes)):
            holes = [i for i, t in enumerate(tables) if layer < len(t)]
            movers = {i: tables[i][layer] for i in holes}
            rest = {i: tables[i][:layer] + tables[i][layer + 1:] for i in holes}
            now = sum(cost(movers[i], i, rest[i]) for i in holes)
            if now < MEETING and problem.by_standing:
                continue  # no meeting again in this layer; moving only costs standing
            moved = _flow(holes, movers, rest, cost, problem.by_standing)
            after = sum(cost(player, i, rest[i]) for i, player in moved.items())
            if after < now:
                for i, player in moved.items():
                    tables[i] = sorted([*rest[i], player], key=rank.__getitem__)
                changed = True
        if not changed or not clashes():
            break
    if clashes():
        _swap(tables, cost, rank)
    return [tuple(t) for t in tables]


def _swap(tables: list[list[str]], cost, rank: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    """What the layers leave: a player who meets someone again is swapped with any player of
    another table where that lowers the whole cost, until no such swap is left."""
    def at(i: int, player: str, leaving: str) -> int:
        return cost(player, i, [q for q in tables[i] if q != leaving])

    for _ in range(len(rank)):
        best: tuple[int, int, str, int, str] | None = None
        for i, table in enumerate(tables):
            for player in table:
                if at(i, player, player) < MEETING:
                    continue
                for j, other_table in enumerate(tables):
                    if j == i:
                        continue
                    for other in other_table:
                        before = at(i, player, player) + at(j, other, other)
                        after = at(j, player, other) + at(i, other, player)
                        if after < before and (best is None or after - before < best[0]):
                            best = (after - before, i, player, j, other)
        if best is None:
            return
        _, i, player, j, other = best
        tables[i] = sorted([q for q in tables[i] if q != player] + [other], key=rank.__getitem__)
        tables[j] = sorted([q for q in tables[j] if q != other] + [player], key=rank.__getitem__)


def _flow(holes: list[int], movers: dict[int, str], rest: dict[int, list[str]], cost, by_standing: bool) -> dict[int, str]:  # type: ignore[no-untyped-def]
    """Each hole's player, by a min-cost flow from the movers to the holes."""
    # networkx (a tenth of a second to import) only where a round is paired, not in every
    # process that imports the tournaments.
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_node("source", demand=-len(holes))
    graph.add_node("sink", demand=len(holes))
    position = {i: n for n, i in enumerate(holes)}
    for i, player in movers.items():
        graph.add_edge("source", ("player", i), capacity=1, weight=0)
        # By standing, a player moves only to nearby tables, unless it meets someone again at its own.
        far = not by_standing or cost(player, i, rest[i]) >= MEETING
        for j in holes:
            if far or abs(position[j] - position[i]) <= WINDOW:
                graph.add_edge(("player", i), ("table", j), capacity=1, weight=cost(player, j, rest[j]))
    for j in holes:
        graph.add_edge(("table", j), "sink", capacity=1, weight=0)
    flow = nx.min_cost_flow(graph)
    return {j: movers[i] for i in holes for j in holes if flow[("player", i)].get(("table", j))}
