"""Standings and the tie-break ladder, from a tournament's folded record alone.

Each player's figures are summed over the tables that count (every table in Swiss and
schedule events; the heats for advancement in heats events). Players are ordered by the
format's ladder of tie-breaks, each comparing one figure, higher first; the player's draw
(derived from the secret) always ends the ladder, so the order is total.

Tie-breaks (`TIE_BREAKS`):
- `points`: tournament points by place (shared places split them) and byes' points;
- `wins`: tables won (a shared first place counts);
- `place_points`: the WBC's place points, 1st 1000 / 2nd 100 / 3rd 10 / 4th 1;
- `winner_percentage`: the best non-winning game's score as a percentage of that table's
  winning score (the WBC's second tie-break);
- `score_sum`: the sum of the player's game scores;
- `draw`: the player's draw, lowest first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from domain.tournament import events as ev
from domain.tournament.points import WBC_PLACE_POINTS, as_number, points
from domain.tournament.state import Table, Tournament

TIE_BREAKS = ("points", "wins", "place_points", "winner_percentage", "score_sum", "draw")
DEFAULT_LADDERS = {
    ev.HEATS: ("wins", "place_points", "winner_percentage", "draw"),
    ev.SWISS: ("points", "score_sum", "draw"),
    ev.SCHEDULE: ("points", "wins", "score_sum", "draw"),
}
"""The documented default ladder of each format (docs/tournaments.md)."""


@dataclass(frozen=True)
class Row:
    player: str
    points: float
    wins: int
    games: int
    place_points: float
    winner_percentage: float
    score_sum: int
    draw: str
    byes: int
    withdrawn: str | None
    reached: str
    """The furthest stage the player played: heat, semifinal, final (heats) or round."""

    def figure(self, name: str) -> float | str:
        return getattr(self, name)  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "points": self.points, "wins": self.wins, "games": self.games,
                "place_points": self.place_points, "winner_percentage": self.winner_percentage,
                "score_sum": self.score_sum, "draw": self.draw, "byes": self.byes, "withdrawn": self.withdrawn,
                "reached": self.reached}


def counted(state: Tournament) -> list[Table]:
    """The tables whose results make the ladder's figures: heats only, in a heats event."""
    if state.format.kind == ev.HEATS:
        return [t for t in state.tables if t.stage == ev.HEAT]
    return list(state.tables)


def rows(state: Tournament, tables: Sequence[Table] | None = None) -> dict[str, Row]:
    """Every player's figures over `tables` (default: the tables that count)."""
    scoring = state.created.scoring
    tally: dict[str, dict[str, Fraction | int]] = {
        name: {"points": Fraction(0), "wins": 0, "games": 0, "place_points": Fraction(0), "best": Fraction(0),
               "score_sum": 0, "byes": 0} for name in state.players}
    for table in counted(state) if tables is None else tables:
        result = table.result
        if result is None:
            continue
        earned = points(result.places, scoring.place_points)
        wbc = points(result.places, WBC_PLACE_POINTS)
        winning = max((s for s, p in zip(result.scores, result.places, strict=True) if p == 1), default=0)
        for seat, player in enumerate(table.seats):
            t = tally[player]
            t["points"] += Fraction(str(earned[seat]))
            t["place_points"] += Fraction(str(wbc[seat]))
            t["games"] += 1
            t["score_sum"] += result.scores[seat]
            if result.places[seat] == 1:
                t["wins"] += 1
            elif winning > 0:
                t["best"] = max(t["best"], Fraction(max(result.scores[seat], 0) * 100, winning))
    if tables is None:
        for round_ in state.rounds:
            for player in round_.byes:
                tally[player]["byes"] += 1
                tally[player]["points"] += Fraction(str(scoring.bye_points))
    reached = _reached(state)
    return {name: Row(name, as_number(Fraction(t["points"])), int(t["wins"]), int(t["games"]),
                      as_number(Fraction(t["place_points"])), as_number(Fraction(t["best"])), int(t["score_sum"]),
                      player.draw, int(t["byes"]), player.withdrawn, reached.get(name, ""))
            for (name, t), player in zip(tally.items(), state.players.values(), strict=True)}


def _reached(state: Tournament) -> dict[str, str]:
    order = {ev.HEAT: 0, ev.ROUND: 0, ev.SEMIFINAL: 1, ev.FINAL: 2}
    out: dict[str, str] = {}
    for table in state.tables:
        for player in table.seats:
            if order[table.stage] >= order.get(out.get(player, ""), -1):
                out[player] = table.stage
    return out


def ladder_of(state: Tournament) -> tuple[str, ...]:
    """The tie-breaks in force, the draw always last."""
    chosen = tuple(name for name in state.created.scoring.tie_breaks if name != "draw")
    return (*chosen, "draw")


def sort_key(ladder: Sequence[str]) -> Callable[[Row], tuple[object, ...]]:
    def key(row: Row) -> tuple[object, ...]:
        return tuple(row.draw if name == "draw" else -float(row.figure(name)) for name in ladder)

    return key


def ordered(state: Tournament, players: Sequence[str] | None = None, tables: Sequence[Table] | None = None) -> list[Row]:
    """`players` (default: all) by the ladder over `tables` (default: the tables that count)."""
    figures = rows(state, tables)
    chosen = [figures[p] for p in (players if players is not None else figures)]
    return sorted(chosen, key=sort_key(ladder_of(state)))


def standing(state: Tournament) -> list[Row]:
    """Every player in the order of the standings. Heats: the final's places first, then
    the semifinal's players who did not reach the final by their semifinal place, then the
    rest by the heats' ladder (withdrawn players after those still in); Swiss and schedule:
    the ladder."""
    ladder = ordered(state)
    if state.format.kind != ev.HEATS:
        return sorted(ladder, key=lambda r: r.withdrawn is not None)
    rank = {row.player: index for index, row in enumerate(ladder)}
    by_player = {row.player: row for row in ladder}
    placed: list[str] = []
    for stage in (ev.FINAL, ev.SEMIFINAL):
        finishers = sorted(((_place_at(state, stage, p), rank[p], p) for p in by_player
                            if p not in placed and _place_at(state, stage, p) is not None),
                           key=lambda item: (item[0], item[1]))
        placed += [p for _, _, p in finishers]
    rest = [row.player for row in ladder if row.player not in placed]
    rest.sort(key=lambda p: by_player[p].withdrawn is not None)
    return [by_player[p] for p in (*placed, *rest)]


def _place_at(state: Tournament, stage: str, player: str) -> int | None:
    for table in state.tables:
        if table.stage == stage and player in table.seats and table.result is not None:
            return table.result.places[table.seats.index(player)]
    return None
