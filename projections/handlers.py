"""The per-game part of the projections, as each game declares it (`Decider.figures`,
`domain/core/figures.py`): how one ruleset's events show on the board, the income tracks
and the VP tallies. The runner, the tables and the queries are shared and know no game."""

from __future__ import annotations

from typing import Any

from domain.core.decider import Decider
from domain.core.figures import ADJUSTMENT, Figures, Projector, ScoresOnly, SeatFigures

__all__ = ["ADJUSTMENT", "Figures", "Projector", "ScoresOnly", "SeatFigures", "projector_for"]


def projector_for(decider: Decider[Any]) -> Projector:
    """The game's own projector, or `ScoresOnly` for a game that declares none."""
    return decider.figures
