"""A game played at a table, made up: random legal moves and random possible outcomes,
typed as a referee would type them (the game's notation, `format_outcome`), so a whole
score sheet of any game can be written and read back whatever its notation is."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.core.decider import Decider
from domain.core.errors import RuleError
from domain.core.table import format_outcome
from domain.core.transcription import Transcript


def outcome_for(request: Any, chooser: random.Random) -> Any:
    if request.kind == "roll":
        return [chooser.choice(request.options) for _ in range(request.count)]
    if request.kind == "number":
        return chooser.choice(request.options)
    if request.kind == "pick":
        return chooser.choice(request.options)
    return [chooser.choice(request.options) for _ in range(request.count)]


def sheet(decider: Decider[Any], seats: list[str], options: Mapping[str, Any], observed: Mapping[str, Any],
          seed: int, max_lines: int = 3000) -> tuple[list[str], Transcript]:
    """The lines typed for a whole made-up game (to its end, or `max_lines`), and the
    transcript they made. Forced moves are left to the reader, as at a table."""
    chooser = random.Random(seed)
    transcript = Transcript(decider, seats, options, observed)
    lines: list[str] = []
    while not transcript.over and len(lines) < max_lines:
        if transcript.pending is not None:
            request = transcript.pending.request
            for _ in range(50):  # a draw of several may name more of an item than the pile holds: try again
                text = format_outcome(request, outcome_for(request, chooser))
                try:
                    transcript.enter(text)
                except RuleError:
                    continue
                break
            else:
                raise AssertionError(f"no possible outcome found for {request.describe()}")
        else:
            seat = chooser.choice(sorted(decider.active_seats(transcript.state)))
            move = chooser.choice(decider.legal_moves(transcript.state, seat))
            text = decider.notation.format(transcript.state, seats, seat, move)
            transcript.enter(text)
        lines.append(text)
    return lines, transcript
