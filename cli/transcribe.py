"""`caboose transcribe GAME`: a referee enters a game played at a table, line by line.

Each line is a move in the game's notation, or the outcome the game waits for, as typed at
the table (`domain/core/transcription.py`). At the prompt a line is checked at once and
HELD: it is stored when the next line is entered (or on `commit`, or at the end of input),
so `undo` can still take it back. Forced moves (a seat's only legal move) are filled in and
printed, and held with the line before them. With `--from sheet.txt` the lines of a score
sheet are stored one by one; the first impossible line stops it, with its line number and
a non-zero exit, and nothing of that line is stored.
"""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

import click

from cli.text_files import Utf8File, Utf8Lines
from domain.core.errors import RuleError
from domain.core.referee import referee_actor
from domain.core.transcription import (
    Filled,
    MoveLine,
    OutcomeLine,
    completions,
    expecting,
    forced_move,
    forced_written,
    read_line,
    without_comment,
)
from service.aggregate import Game, Stamp
from service.application import Caboose
from service.commands import EnterOutcomes

COMMANDS = ("undo", "commit", "help", "quit")


@dataclass(frozen=True)
class Step:
    """One command the transcript holds: a move by a seat, or an outcome entered."""

    seat: int | None
    move: dict[str, Any] | None
    outcome: Any = None
    text: str = ""
    forced: bool = False


class Transcription:
    """A referee's session on one stored table game. `enter` checks a line against the game
    as the held steps leave it; `commit` stores the held steps; `undo` drops them."""

    def __init__(self, app: Caboose, game_id: str, referee: str) -> None:
        self.app, self.game_id, self.actor = app, game_id, referee_actor(referee)
        game = app.game(game_id)
        if not game.is_table:
            raise click.ClickException(f"game {game_id} draws its own outcomes (seed source "
                                       f"{app.records(game_id, upto=1)[0]['data']['seed_source']}): only a game created "
                                       "with `caboose new GAME --table` is transcribed")
        self.held: list[Step] = []
        self.shadow: Game = game
        self.filled: list[Filled] = []
        """The forced moves filled in after the last line, which the next line may write out."""

    @property
    def seats(self) -> list[str]:
        return list(self.shadow.seats)

    def expects(self) -> str:
        return expecting(self.shadow.decider, self.shadow.state, self.seats, self.shadow.pending)

    def completions(self) -> list[str]:
        return completions(self.shadow.decider, self.shadow.state, self.seats, self.shadow.pending)

    def enter(self, text: str) -> list[Step]:
        """Check `text` (and the forced moves after it) against the game as held; the steps
        it adds are held. Raises the rules' error, holding nothing of the line. A line that
        writes out a forced move just filled in adds no step: that move is made already."""
        game = self.shadow.copy()
        try:
            line = read_line(game.decider, game.state, game.seats, game.pending, text)
            steps = [self._step(game, line, text)]
        except RuleError:
            written = forced_written(game.decider, game.seats, self.filled, text)
            if not written:
                raise
            del self.filled[:written]
            return []
        self.filled = []
        while game.pending is None and (forced := forced_move(game.decider, game.state)) is not None:
            seat, move = forced
            self.filled.append(Filled(game.state, seat, move))
            notation = game.decider.notation.format(game.state, game.seats, seat, move)
            steps.append(self._step(game, MoveLine(seat, move), notation, forced=True))
        game.collect_events()  # the copy is never stored: what it recorded is only for checking
        self.shadow = game
        return steps

    def _step(self, game: Game, line: MoveLine | OutcomeLine, text: str, forced: bool = False) -> Step:
        step = Step(line.seat, line.move, text=text, forced=forced) if isinstance(line, MoveLine) \
            else Step(None, None, line.value, text)
        _apply(game, step, self.actor)
        return step

    def hold(self, steps: list[Step]) -> None:
        self.held = steps

    def commit(self) -> int:
        """Store the held steps; returns how many records they added."""
        stored = 0
        for step in self.held:
            if step.move is not None and step.seat is not None:
                stored += len(self.app.play(self.game_id, step.seat, step.move, actor=self.actor))
            else:
                stored += len(self.app.execute(EnterOutcomes(self.game_id, [step.outcome], self.actor, None)).records)
        self.held = []
        self.shadow = self.app.game(self.game_id)
        return stored

    def commit_before(self, steps: list[Step]) -> int:
        """Store what was held, then hold `steps` (already checked against the held game)."""
        shadow = self.shadow
        stored = self.commit() if self.held else 0
        self.shadow, self.held = shadow, steps
        return stored

    def undo(self) -> list[Step]:
        """Drop the held steps (the last line and the forced moves after it)."""
        dropped, self.held = self.held, []
        self.shadow = self.app.game(self.game_id)
        return dropped


def _apply(game: Game, step: Step, actor: str) -> None:
    """A step decided on `game` (a copy, never stored): the rules' errors as for the store."""
    stamp = Stamp.now(f"check:{uuid.uuid4()}")
    if step.move is not None and step.seat is not None:
        game.play(step.seat, step.move, game.randomness((), actor), stamp, actor)
    else:
        game.enter_outcomes([step.outcome], stamp, actor, None)


# -- the interactive prompt ----------------------------------------------------------------

def prompt_loop(session: Transcription, lines: Iterator[str], out: TextIO) -> None:
    """Read lines until the end of input or `quit`, then store what is held."""
    say = lambda text: print(text, file=out, flush=True)  # noqa: E731
    say(f"Transcribing {session.shadow.ruleset} game {session.game_id} at version {session.shadow.version}. "
        "A line is stored when the next one is entered; `undo` takes back the last, `commit` stores it now, "
        "`help` lists what may be typed, `quit` (or end of input) stores and stops.")
    for raw in lines:
        text = without_comment(raw)
        if not text:
            continue
        if text == "quit":
            break
        if text == "undo":
            dropped = session.undo()
            say(f"undone: {'; '.join(s.text for s in dropped)}" if dropped else "nothing to undo: the last line is stored")
            continue
        if text == "commit":
            say(f"stored {session.commit()} event(s)")
            continue
        if text in ("help", "?"):
            say("\n".join(session.completions()) or "nothing: the game is over")
            continue
        try:
            steps = session.enter(text)
        except RuleError as error:
            say(f"refused: {error.message}")
            continue
        if not steps:
            say(f"ok: {text} (a forced move, filled in already)")
            continue
        stored = session.commit_before(steps)
        say(f"ok: {steps[0].text}" + (f" (stored {stored} event(s) of the line before)" if stored else ""))
        for step in steps[1:]:
            say(f"forced: {step.text}")
    stored = session.commit()
    say(f"stored {stored} event(s); {session.expects()}")


def prompts(session: Transcription) -> Iterator[str]:
    """Lines typed at a terminal, with readline's completion of the legal lines."""
    import readline

    def complete(_: str, index: int) -> str | None:
        typed = readline.get_line_buffer().lower()
        found = [c for c in (*session.completions(), *COMMANDS) if c.lower().startswith(typed)]
        return found[index] if index < len(found) else None

    readline.set_completer_delims("")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    while True:
        held = f" (holding: {session.held[0].text})" if session.held else ""
        try:
            yield input(f"[v{session.shadow.version}] {session.expects()}{held}> ")
        except EOFError:
            print(file=sys.stdout)
            return


# -- a score sheet ---------------------------------------------------------------------------

def read_sheet_file(session: Transcription, lines: Iterable[str], out: TextIO) -> int:
    """Store a score sheet's lines one by one; returns the number of lines read. Raises
    `SheetLineRefused` at the first impossible line (nothing of it stored)."""
    count = 0
    for number, raw in enumerate(lines, start=1):
        text = without_comment(raw)
        if not text:
            continue
        try:
            steps = session.enter(text)
            session.hold(steps)
            session.commit()
        except RuleError as error:
            session.undo()
            raise SheetLineRefused(number, raw.rstrip("\n"), error) from None
        count += 1
        for step in steps[1:]:
            print(f"line {number}: forced: {step.text}", file=out)
    return count


class SheetLineRefused(click.ClickException):
    def __init__(self, number: int, text: str, error: RuleError) -> None:
        super().__init__(f"line {number}: {text.strip()!r}: {error.code}: {error.message} (nothing of this line stored)")
        self.number = number


@click.command("transcribe")
@click.argument("game_id")
@click.option("--from", "sheet", type=Utf8File(), default=None,
              help="Read a score sheet (one line per move or outcome; # comments) instead of prompting.")
@click.option("--referee", default="table", show_default=True, help="The referee's name, recorded with each outcome entered.")
@click.option("--db", envvar="CABOOSE_DB", default=None, help="As for every command.")
def transcribe_cli(game_id: str, sheet: Utf8Lines | None, referee: str, db: str | None) -> None:
    """Enter a game played at a table, line by line in the game's notation: moves, and the
    outcomes the rules wait for (dice, a cube from the bag, cards turned up)."""
    from cli.common import _app, handles_errors

    @handles_errors
    def run() -> None:
        session = Transcription(_app(db), game_id, referee)
        if sheet is not None:
            # The whole sheet is read first: a file that is not UTF-8 text stores nothing.
            count = read_sheet_file(session, list(sheet), sys.stdout)
            click.echo(f"read {count} line(s); version {session.shadow.version}; {session.expects()}")
            return
        source: Iterator[str] = prompts(session) if sys.stdin.isatty() else (line for line in sys.stdin)
        with contextlib.suppress(KeyboardInterrupt):
            prompt_loop(session, source, sys.stdout)

    run()
