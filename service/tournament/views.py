"""What a tournament shows: its summary, its standings (the read model of
`projections/tournaments.py`), its tables with their results, and the dispute desk's list.
Everything here is public: a tournament's record holds no secret but its own, which is
shown once revealed."""

from __future__ import annotations

from typing import Any

from domain.core.referee import disputes
from domain.tournament.decide import next_stage
from domain.tournament.points import points
from domain.tournament.standings import ladder_of
from domain.tournament.state import Table
from domain.tournament.state import Tournament as Folded
from projections.runner import log_caught_up
from projections.store import ReadModelError
from projections.tournaments import meetings, standings_answer, status, stored_listing, stored_standings
from service.application import Caboose
from service.tournament.aggregate import Tournament
from service.tournament.store import Shelf


def summary(tournament: Tournament) -> dict[str, Any]:
    state, created = tournament.state, tournament.state.created
    return {
        "tournament_id": state.id, "name": created.name, "game": created.game, "ruleset_version": created.ruleset_version,
        "format": {"kind": created.format.kind, "rounds": created.format.rounds, "table_size": created.format.table_size,
                   "semifinal": created.format.semifinal, "final": created.format.final, "seeding": created.format.seeding},
        "scoring": {"place_points": list(created.scoring.place_points), "tie_breaks": list(ladder_of(state)),
                    "bye_points": created.scoring.bye_points},
        "table_sizes": list(created.table_sizes), "seed_source": created.seed_source, "commitment": created.commitment,
        "secret": state.secret, "move_deadline": created.move_deadline, "status": status(state),
        "version": tournament.version, "created_at": tournament.created_at, "updated_at": tournament.updated_at,
        "players": [{"player": p.name, "draw": p.draw, "rating": p.rating, "late": p.late, "withdrawn": p.withdrawn}
                    for p in state.players.values()],
        "rounds": [{"round": r.number, "stage": r.stage, "byes": list(r.byes), "repeats": r.repeats,
                    "tables": len(state.round_tables(r.number))} for r in state.rounds],
        "next": next_stage(state) if not state.finished else None,
        "playing": [t.game_id for t in state.playing() if t.game_id], **meetings(state),
    }


def table_json(state: Folded, table: Table) -> dict[str, Any]:
    result = table.result
    earned = points(result.places, state.created.scoring.place_points) if result is not None else None
    seats = [{"seat": i, "player": p, "place": result.places[i] if result else None,
              "score": result.scores[i] if result else None, "points": earned[i] if earned else None}
             for i, p in enumerate(table.seats)]
    status = "finished" if result is not None else "playing" if table.game_id else "waiting"
    return {"round": table.round, "table": table.table, "stage": table.stage, "game_id": table.game_id,
            "status": status, "seats": seats, "seed_commitment": table.seed_commitment,
            "ruled_by": result.ruled_by if result else None, "ruling": result.reason if result else None,
            "replay": f"/games/{table.game_id}/replay" if table.game_id else None}


def tables(tournament: Tournament, round_: int | None = None) -> list[dict[str, Any]]:
    state = tournament.state
    chosen = state.tables if round_ is None else state.round_tables(round_)
    return [table_json(state, t) for t in chosen]


class Standings:
    """The standings read model (`projections/tournaments.py`), brought up to the end of the
    log first: a result recorded just before is in the answer."""

    def __init__(self, caboose: Caboose) -> None:
        self.caboose = caboose

    def of(self, shelf: Shelf, tournament_id: str) -> dict[str, Any]:
        shelf.key(tournament_id)
        found = stored_standings(log_caught_up(self.caboose), tournament_id)
        if found is None:
            shelf.get(tournament_id)  # TournamentNotFound, as for every other route
            raise ReadModelError(f"The read models hold nothing of tournament {tournament_id}; "
                                 "run `caboose projections rebuild`.")
        return found


def computed(tournament: Tournament) -> dict[str, Any]:
    """The standings folded from the tournament's events here and now (what the read model holds)."""
    return standings_answer(tournament.state, tournament.version)


def open_disputes(caboose: Caboose, state: Folded, include_ruled: bool = False) -> list[dict[str, Any]]:
    """Every dispute of every table, open ones first (with `include_ruled`, the ruled too)."""
    found = []
    for table in state.tables:
        if table.game_id is None:
            continue
        for dispute in disputes(caboose.records(table.game_id)):
            if include_ruled or dispute["status"] == "raised":
                found.append({"round": table.round, "table": table.table, "game_id": table.game_id, **dispute})
    return sorted(found, key=lambda d: (d["status"] != "raised", d["time"]))


def listing(caboose: Caboose) -> list[dict[str, Any]]:
    """Each tournament's name, game, format and status, newest activity first (the tournament index)."""
    return stored_listing(log_caught_up(caboose))
