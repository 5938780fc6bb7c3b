"""A tournament's commands judged: each returns the events to record or raises a `RuleError`
saying what is wrong, and changes nothing. The service records what these decide, and the
record's fold (`state.evolve`) checks it again whenever it is read or imported."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.errors import IllegalMove, MalformedMove
from domain.core.kinds import PinnedPack
from domain.tournament import events as ev
from domain.tournament import fairness
from domain.tournament import pairing as p
from domain.tournament.points import places as places_of
from domain.tournament.standings import DEFAULT_LADDERS, TIE_BREAKS, standing
from domain.tournament.state import Tournament, valid_places

CLUB_PLACE_POINTS = (3, 1.5, 0.5, 0, 0, 0)
"""The default points per place (club and expo events: 3 / 1.5 / 0.5 / 0)."""
MAX_ROUNDS = 50
SEEDINGS = ("draw", "rating")


def created(*, name: str, game: str, ruleset_version: str, content: Mapping[str, str] | None, seats: tuple[int, int],
            options: Mapping[str, Any], kind: str, rounds: int, table_size: int | None = None,
            semifinal: int | None = None, final: int | None = None, seeding: str = "draw",
            place_points: Sequence[float] | None = None, tie_breaks: Sequence[str] | None = None,
            bye_points: float | None = None, commitment: str, seed_source: str = "server",
            move_deadline: int | None = None) -> ev.TournamentCreated:
    """A new tournament of `game` (which seats `seats` = (fewest, most) at a table)."""
    allowed = tuple(range(seats[0], seats[1] + 1))
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 100:
        raise MalformedMove("bad_name", "A tournament's name is 1–100 characters.", "name")
    if kind not in ev.FORMATS:
        raise MalformedMove("bad_format", f"The format is one of {', '.join(ev.FORMATS)}, not {kind!r}.", "format")
    if not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise MalformedMove("bad_rounds", f"A tournament has 1–{MAX_ROUNDS} rounds (heats), not {rounds!r}.", "rounds")
    size = table_size if table_size is not None else min(4, allowed[-1]) if allowed[0] <= 4 else allowed[0]
    if size not in allowed:
        raise MalformedMove("bad_table_size", f"{game} is played at tables of {allowed[0]}–{allowed[-1]}, not {size}.",
                            "table_size", {"game": game, "least": allowed[0], "most": allowed[-1], "size": size})
    final_size = final if final is not None else size
    semis = semifinal if semifinal is not None else final_size * size
    if kind == ev.HEATS:
        _check_heats(game, allowed, size, semis, final_size)
    if seeding not in SEEDINGS:
        raise MalformedMove("bad_seeding", f"Seeding is by draw or rating, not {seeding!r}.", "seeding")
    if seed_source not in ("server", "table"):
        raise MalformedMove("bad_seed_source", "Tables draw from seeds derived from the secret (`server`) or play "
                            "with physical components (`table`).", "seed_source")
    worth = tuple(place_points) if place_points is not None else CLUB_PLACE_POINTS[:allowed[-1]]
    if not worth or any(not isinstance(x, int | float) or isinstance(x, bool) or x < 0 for x in worth):
        raise MalformedMove("bad_place_points", "Points per place are numbers of 0 or more, first place first.", "place_points")
    ladder = tuple(tie_breaks) if tie_breaks is not None else DEFAULT_LADDERS[kind]
    unknown = [t for t in ladder if t not in TIE_BREAKS]
    if unknown or len(set(ladder)) != len(ladder):
        raise MalformedMove("bad_tie_breaks", f"Tie-breaks are named once each from {', '.join(TIE_BREAKS)}"
                            f"{'; not ' + ', '.join(map(repr, unknown)) if unknown else ''}.", "tie_breaks")
    if move_deadline is not None and (not isinstance(move_deadline, int) or not 60 <= move_deadline <= 90 * 86400):
        raise MalformedMove("bad_deadline", "A move deadline is 60 seconds to 90 days.", "move_deadline")
    bye = bye_points if bye_points is not None else sum(worth[:size]) / size
    return ev.TournamentCreated(
        name=name.strip(), game=game, ruleset_version=ruleset_version,
        content=PinnedPack(**content) if content is not None else None, options=dict(options),
        format=ev.Format(kind, rounds, size, semis if kind == ev.HEATS else 0, final_size if kind == ev.HEATS else 0,
                         seeding),
        scoring=ev.Scoring(worth, ladder, bye), table_sizes=allowed, commitment=commitment, seed_source=seed_source,
        move_deadline=move_deadline)


def _check_heats(game: str, allowed: tuple[int, ...], size: int, semis: int, final: int) -> None:
    if final not in allowed:
        raise MalformedMove("bad_table_size", f"The final is one table: {game} seats {allowed[0]}–{allowed[-1]}, "
                            f"not {final}.", "final")
    if semis:
        sizes = p.split(semis, size, allowed)
        if semis < final or sizes is None or len(sizes) > final:
            raise MalformedMove("bad_semifinal", f"{semis} semifinalists cannot fill tables whose winners all reach a "
                                f"final of {final}.", "semifinal")


def registered(state: Tournament, name: str, secret: bytes, rating: float | None) -> ev.PlayerRegistered:
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 64:
        raise MalformedMove("bad_player", "A player's name is 1–64 characters.", "player")
    name = name.strip()
    if name in state.players:
        raise IllegalMove("already_registered", f"{name} is registered already.", {"player": name})
    if state.finished or not _open(state):
        raise IllegalMove("registration_closed", "Registration is closed: " + (
            "the tournament has finished." if state.finished else "the rounds players may still enter are paired."))
    return ev.PlayerRegistered(player=name, draw=fairness.draw(secret, name), rating=rating, late=bool(state.rounds))


def _open(state: Tournament) -> bool:
    """Whether a player may still enter: heats until the semifinal or final is paired,
    Swiss until its last round is, a schedule until its season is."""
    fmt, paired = state.format, len(state.rounds)
    if fmt.kind == ev.HEATS:
        return paired < fmt.rounds
    if fmt.kind == ev.SWISS:
        return paired < fmt.rounds
    return paired == 0


def withdrawn(state: Tournament, name: str, how: str, level: str | None, reason: str, referee: str,
              levels: Sequence[str]) -> ev.PlayerWithdrawn:
    player = state.players.get(name)
    if player is None:
        raise IllegalMove("not_registered", f"{name} is not registered in this tournament.", {"player": name})
    if player.withdrawn is not None:
        raise IllegalMove("already_withdrawn", f"{name} has withdrawn already.", {"player": name})
    if state.finished:
        raise IllegalMove("finished", "The tournament has finished.")
    if how not in (ev.FORFEIT, ev.BOT):
        raise MalformedMove("bad_withdrawal", "A withdrawn player's running games are forfeited (`forfeit`) or kept "
                            "by a bot (`bot`).", "how")
    if how == ev.BOT and level not in levels:
        raise MalformedMove("unknown_bot", f"Name the bot's level: one of {', '.join(levels)}.", "level")
    return ev.PlayerWithdrawn(player=name, how=how, level=level if how == ev.BOT else None, reason=reason, referee=referee)


def next_stage(state: Tournament) -> str | None:
    """The stage of the round to pair next, or None when every round is paired."""
    fmt, paired = state.format, state.rounds
    if fmt.kind == ev.HEATS:
        if len(paired) < fmt.rounds:
            return ev.HEAT
        stages = {r.stage for r in paired}
        if fmt.semifinal and ev.SEMIFINAL not in stages:
            return ev.SEMIFINAL
        return ev.FINAL if ev.FINAL not in stages else None
    if fmt.kind == ev.SCHEDULE:
        return ev.ROUND if not paired else None
    return ev.ROUND if len(paired) < fmt.rounds else None


def plans(state: Tournament, secret: bytes, solver: p.Solver, entrants: Sequence[str] | None = None) -> list[p.Plan]:
    """The next round's tables (a schedule: every round of its season), or why not now."""
    if state.finished:
        raise IllegalMove("finished", "The tournament has finished: nothing is left to pair.")
    playing = state.playing()
    if playing:
        names = ", ".join(f"round {t.round} table {t.table} (game {t.game_id or 'not opened yet'})" for t in playing)
        raise IllegalMove("tables_playing", f"Tables are still playing: {names}. Pair the next round once their "
                          "results are in.", {"tables": [t.game_id for t in playing if t.game_id]})
    stage = next_stage(state)
    if stage is None:
        raise IllegalMove("all_paired", "Every round of this tournament is paired already.")
    if entrants is not None and stage != ev.HEAT:
        raise MalformedMove("entrants_heats_only", "Players choose which rounds to enter only in heats.", "entrants")
    number, fmt = len(state.rounds) + 1, state.format
    allowed = state.created.table_sizes
    if stage == ev.HEAT:
        players = _entrants(state, entrants)
        order, sizes, byes = p.fitted(p.round_draw(secret, number, players), fmt.table_size, allowed)
        tables = p.consecutive(p.Problem(order, sizes))
    elif stage in (ev.SEMIFINAL, ev.FINAL):
        order = p.advancing(state, stage)
        if stage == ev.FINAL:
            if len(order) < allowed[0]:
                raise IllegalMove("too_few_players", f"Too few players for the final: {len(order)}, a table needs "
                                  f"at least {allowed[0]}.", {"players": len(order), "least": allowed[0]})
            order, sizes, byes = order, (len(order),), ()
        else:
            order, sizes, byes = p.fitted(order, fmt.table_size, allowed)
        tables = p.snake(order, sizes)
    elif fmt.kind == ev.SWISS:
        return [_swiss(state, secret, solver, number)]
    else:
        return _season(state, secret, solver)
    return [p.seated(state, secret, number, stage, order, byes, tables, p.met(state))]


def _entrants(state: Tournament, entrants: Sequence[str] | None) -> list[str]:
    active = state.active()
    if entrants is None:
        return active
    unknown = [name for name in entrants if name not in active]
    if unknown:
        raise IllegalMove("not_registered", f"Not players still in this tournament: {', '.join(unknown)}.",
                          {"players": unknown})
    return list(dict.fromkeys(entrants))


def _byes_last(order: Sequence[str], count: int, had: Sequence[str]) -> tuple[list[str], list[str]]:
    """(seated, byes): `count` byes for the lowest in `order` who have not had one yet."""
    byes: list[str] = []
    for player in reversed(order):
        if len(byes) < count and player not in had:
            byes.append(player)
    for player in reversed(order):  # everyone has had one: the lowest again
        if len(byes) < count and player not in byes:
            byes.append(player)
    return [q for q in order if q not in byes], list(reversed(byes))


def _swiss(state: Tournament, secret: bytes, solver: p.Solver, number: int) -> p.Plan:
    order = p.swiss_order(state, number)
    _, sizes, fitted_byes = p.fitted(order, state.format.table_size, state.created.table_sizes)
    had = [q for r in state.rounds for q in r.byes]
    players, byes = _byes_last(order, len(fitted_byes), had)
    before = p.met(state)
    problem = p.Problem(tuple(players), sizes, before, by_standing=True)
    tables = p.checked(solver(problem), problem)
    return p.seated(state, secret, number, ev.ROUND, players, byes, tables, before)


def _season(state: Tournament, secret: bytes, solver: p.Solver) -> list[p.Plan]:
    """Every round of a schedule, each avoiding the meetings of those before it."""
    active = state.active()
    planned: list[p.Plan] = []
    extra: list[tuple[str, ...]] = []
    for number in range(1, state.format.rounds + 1):
        draw = p.round_draw(secret, number, active)
        players, sizes, byes = p.fitted(draw, state.format.table_size, state.created.table_sizes)
        before = p.met(state, extra)
        problem = p.Problem(players, sizes, before, by_standing=False)
        tables = p.checked(solver(problem), problem)
        extra += tables
        planned.append(p.seated(state, secret, number, ev.ROUND, players, byes, tables, before))
    return planned


def table_finished(state: Tournament, game_id: str, finish: Mapping[int, tuple[int, ...]], scores: Mapping[int, int],
                   version: int, head: str) -> ev.TableFinished:
    """A table's result from its ended game: places by the game's own order of finish, a
    forfeited seat last."""
    table = state.table_of(game_id)
    if table is None:
        raise IllegalMove("not_in_tournament", f"Game {game_id} is not a table of this tournament.", {"game_id": game_id})
    if table.result is not None:
        raise IllegalMove("result_recorded", f"The result of round {table.round} table {table.table} is in already.")
    seats = range(len(table.seats))
    keys = tuple(tuple(finish[s]) for s in seats)
    forfeited = tuple(s for s in seats if state.players[table.seats[s]].withdrawn == ev.FORFEIT)
    return ev.TableFinished(round=table.round, table=table.table, game_id=game_id, places=places_of(keys, forfeited),
                            scores=tuple(scores[s] for s in seats), finish=keys, forfeited=forfeited, version=version,
                            head=head, automatic=True)


def ruled(state: Tournament, game_id: str, places: Sequence[int], reason: str, referee: str,
          dispute: int | None) -> ev.ResultRuled:
    """A referee's ruling on a table's result. Rounds paired since stand as paired: the
    event names them, and nothing is re-paired."""
    if state.finished:
        raise IllegalMove("finished", "The tournament has finished and its secret is revealed: its results stand.")
    table = state.table_of(game_id)
    if table is None:
        raise IllegalMove("not_in_tournament", f"Game {game_id} is not a table of this tournament.", {"game_id": game_id})
    chosen = tuple(places)
    if not valid_places(chosen, len(table.seats)):
        raise MalformedMove("bad_places", f"Places are one per seat of the table's {len(table.seats)}, each one more "
                            "than the seats ahead of it (e.g. 1, 2, 2, 4).", "places")
    if not reason.strip():
        raise MalformedMove("bad_reason", "A ruling gives its reason.", "reason")
    since = tuple(r.number for r in state.rounds if r.number > table.round)
    return ev.ResultRuled(round=table.round, table=table.table, game_id=game_id, places=chosen, reason=reason,
                          referee=referee, dispute=dispute, paired_since=since)


def complete(state: Tournament) -> bool:
    """Every round paired and every result in."""
    return bool(state.tables) and not state.playing() and next_stage(state) is None and not state.finished


def finished(state: Tournament, secret: bytes) -> list[ev.TournamentFinished | ev.SecretRevealed]:
    """The end: the final standing, then the secret made public."""
    if not complete(state):
        raise IllegalMove("not_complete", "The tournament is not over: rounds are left to pair or tables to finish.")
    return [ev.TournamentFinished(standing=tuple(r.player for r in standing(state)), automatic=True),
            ev.SecretRevealed(revealed=secret.hex(), automatic=True)]

