"""Outcomes from a table (FORMAT.md, "Outcomes from a table").

A game recorded from a physical table (`seed_source: "table"`) has no generator. When the
rules ask for a random outcome, `TableRandom` answers with the next outcome entered by the
referee (or, for a seat's own secret draw, by that seat), in the game's own terms: die
faces, a cube colour, the cards drawn. It checks each one was possible (the colour is still
in the bag, the cards still in the pile) and raises `ImpossibleOutcome` otherwise. When no
entered outcome is left, it raises `OutcomeNeeded` with a `Request` that says what the
rules need next, so the game can wait for it.

A shuffle at a table has no outcome anyone can write down: the pile keeps its canonical
order, and every later draw from it is entered as it is turned up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from domain.core.canonical import canonical
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.randomness import Label

T = TypeVar("T")

ROLL, PICK, DRAW, NUMBER = "roll", "pick", "draw", "number"


@dataclass(frozen=True)
class Request:
    """What the rules need from the table next, in the game's own terms.

    `options` are the values still possible (die faces; the distinct items in the bag or
    pile) and `labels` how each is named at the table. `count` is how many dice or items.
    `by` is the seat whose own secret draw it is; None means the referee enters it."""

    kind: str
    what: str
    count: int
    options: tuple[Any, ...]
    labels: tuple[str, ...]
    by: int | None = None
    available: Mapping[str, int] = field(default_factory=dict, compare=False)
    """For a bag or pile: how many of each label it still holds. Said to whoever enters the
    outcome, not part of what is asked (a record's request, which leaves it out, is the same
    request)."""

    def describe(self) -> str:
        """One line for a prompt or a summary: "goods growth, light dice: 6 dice"."""
        if self.kind == ROLL:
            return f"{self.what}: {self.count} {'die' if self.count == 1 else 'dice'}"
        if self.kind == NUMBER:
            return f"{self.what}: a number from 0 to {len(self.options) - 1}"
        return f"{self.what}: {self.count} of {', '.join(self.labels)}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "what": self.what, "count": self.count, "options": list(self.options),
                "labels": list(self.labels), "by": self.by, "describe": self.describe()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Request:
        # A record's `needed` leaves out the counts (`to_json`): what it holds is recorded
        # as it always was, so table games stored before still audit; a request that has
        # them (the game's own, re-decided) keeps them.
        return cls(data["kind"], data["what"], data["count"], tuple(data["options"]), tuple(data["labels"]), data.get("by"),
                   dict(data.get("available") or {}))


class OutcomeNeeded(Exception):
    """The rules need an outcome from the table that has not been entered yet."""

    def __init__(self, request: Request, used: int) -> None:
        super().__init__(f"the rules need an outcome from the table: {request.describe()}")
        self.request = request
        self.used = used


class ImpossibleOutcome(IllegalMove):
    """An entered outcome the components at the table could not have produced."""

    def __init__(self, message: str) -> None:
        super().__init__("impossible_outcome", message)


class TableRandom:
    """Answers the rules from entered outcomes, in order, checking each was possible.

    An entered outcome is plain JSON: a list of faces for `roll`, one item for `pick`, a
    list of items for `draw`, an integer for `number`. `used` counts those consumed."""

    def __init__(self, entered: Iterable[Any] = ()) -> None:
        self._entered = list(entered)
        self.used = 0
        self.requests: list[Request] = []
        """Each request answered so far, in order (who entered what, for the record)."""

    def _next(self, request: Request) -> Any:
        if self.used >= len(self._entered):
            raise OutcomeNeeded(request, self.used)
        value = self._entered[self.used]
        self.used += 1
        self.requests.append(request)
        return value

    def randbelow(self, n: int) -> int:
        request = Request(NUMBER, "a number drawn at random", 1, tuple(range(n)), tuple(map(str, range(n))))
        value = self._next(request)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
            raise ImpossibleOutcome(f"{value!r} is not a number from 0 to {n - 1}")
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        # Nobody at a table sees a shuffled order: the pile keeps its canonical order and
        # each card is entered when it is turned up (`draw`).
        return sorted(items, key=canonical)

    def roll(self, dice: int, what: str, sides: int = 6) -> list[int]:
        faces = tuple(range(1, sides + 1))
        value = self._next(Request(ROLL, what, dice, faces, tuple(map(str, faces))))
        if (not isinstance(value, list) or len(value) != dice
                or any(not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= sides for f in value)):
            raise ImpossibleOutcome(f"{what}: {dice} {'die' if dice == 1 else 'dice'} of faces 1 to {sides} were rolled, "
                                    f"not {value!r}")
        return list(value)

    def pick(self, items: Sequence[T], what: str, label: Label = str) -> int:
        value = self._next(_from_pile(PICK, what, 1, items, label, None))
        if value not in items:
            raise ImpossibleOutcome(f"{what}: {_name(value, items, label)} is not there to take; "
                                    f"there are {_holding(items, label)}")
        return list(items).index(value)

    def draw(self, pile: Sequence[T], count: int, what: str, label: Label = str,
             by: int | None = None) -> list[T]:
        value = self._next(_from_pile(DRAW, what, count, pile, label, by))
        if not isinstance(value, list) or len(value) != count:
            raise ImpossibleOutcome(f"{what}: {count} {'item was' if count == 1 else 'items were'} drawn, not {value!r}")
        missing = Counter(map(canonical, value)) - Counter(map(canonical, pile))
        if missing:
            wanted = [v for v in value if canonical(v) in missing]
            raise ImpossibleOutcome(f"{what}: {', '.join(_name(v, pile, label) for v in wanted)} cannot be drawn; "
                                    f"there are {_holding(pile, label)}")
        return list(value)


def _from_pile(kind: str, what: str, count: int, pile: Sequence[Any], label: Label, by: int | None) -> Request:
    options = sorted({canonical(item): item for item in pile}.values(), key=canonical)
    counts = Counter(label(item) for item in pile)
    return Request(kind, what, count, tuple(options), tuple(label(o) for o in options), by, dict(counts))


def _name(value: Any, pile: Sequence[Any], label: Label) -> str:
    try:
        return label(value)
    except Exception:  # an entered value of the wrong shape has no name in the game
        return repr(value)


def _holding(pile: Sequence[Any], label: Label) -> str:
    if not pile:
        return "none left"
    counts = Counter(label(item) for item in pile)
    return ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))


# --- outcomes typed at a table -----------------------------------------------------------

_SPLIT = re.compile(r"[\s,;]+")


def parse_outcome(request: Request, text: str) -> Any:
    """The outcome a referee typed for `request`: die faces as numbers ("3 5 1"), items by
    their label or a prefix only one label has ("red", "bl" is ambiguous)."""
    words = [w for w in _SPLIT.split(text.strip()) if w]
    if request.kind in (ROLL, NUMBER):
        try:
            numbers = [int(w) for w in words]
        except ValueError:
            raise MalformedMove("bad_outcome", f"{request.what}: type {request.count} number(s), not {text.strip()!r}") from None
        if len(numbers) != request.count:
            raise MalformedMove("bad_outcome", f"{request.what}: type {request.count} number(s), not {len(numbers)}")
        return numbers[0] if request.kind == NUMBER else numbers
    values = [_option(request, word) for word in _words_for(request, text)]
    if len(values) != request.count:
        raise MalformedMove("bad_outcome", f"{request.what}: name {request.count} item(s), not {len(values)}")
    return values[0] if request.kind == PICK else values


def _words_for(request: Request, text: str) -> list[str]:
    # Labels may hold spaces ("Denver - El Paso"): take the longest label at each position.
    text = text.strip()
    words: list[str] = []
    labels = sorted(request.labels, key=len, reverse=True)
    while text:
        hit = next((label for label in labels if text.lower().startswith(label.lower())
                    and (len(text) == len(label) or not text[len(label)].isalnum())), None)
        # An item named in full but no longer there ("Los Angeles-Miami") is one word up to
        # the next comma, so it is refused as impossible rather than read word by word.
        word = hit if hit is not None else re.split(r"\s*[,;]" if "," in text or ";" in text else _SPLIT, text, maxsplit=1)[0]
        words.append(word)
        text = text[len(word):].lstrip(" ,;\t")
    return words


def _option(request: Request, word: str) -> Any:
    lowered = word.lower()
    exact = [o for o, label in zip(request.options, request.labels, strict=True) if label.lower() == lowered]
    if exact:
        return exact[0]
    prefixed = [o for o, label in zip(request.options, request.labels, strict=True) if label.lower().startswith(lowered)]
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed:
        raise ImpossibleOutcome(f"{request.what}: {word!r} is not possible now; "
                                f"possible: {', '.join(request.labels) or 'nothing'}")
    raise MalformedMove("bad_outcome", f"{request.what}: {word!r} could be any of "
                        f"{', '.join(label for label in request.labels if label.lower().startswith(lowered))}")


def format_outcome(request: Request, value: Any) -> str:
    """The outcome as a referee would type it (parse_outcome reads it back)."""
    if request.kind == ROLL:
        return " ".join(str(face) for face in value)
    if request.kind == NUMBER:
        return str(value)
    names = dict(zip(map(canonical, request.options), request.labels, strict=True))
    items = [value] if request.kind == PICK else value
    return ", ".join(names.get(canonical(item), str(item)) for item in items)
