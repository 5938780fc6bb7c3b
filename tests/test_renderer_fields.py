"""The replay viewer's JavaScript reads events by kind and field name (`case "RouteClaimed":
… d.route`, `e.kind === "TurnBegan" … e.data.turn`); every kind and field it reads must be one
the published catalogue declares, so renaming a field in a kind's dataclass cannot quietly
blank a line of the viewer. A game whose own kinds are not declared yet is checked on the
core's kinds alone."""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from pathlib import Path

import pytest

from domain import games
from domain.core.catalogue import Catalogue
from domain.core.events import Event, record_key
from domain.core.kinds import CORE

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "service" / "viewer" / "static"
RENDERERS = STATIC / "renderers"


def renderer(game: str) -> Path:
    """A game's renderer, in its own package."""
    return ROOT / "domain" / game / "renderer.js"

# Where a kind's code starts: a `case "Kind":`, a comparison of an event's kind, or a
# handler keyed by kind (`wording.js`'s `GameCreated: (d, ctx) => …`). Kinds are CapWords
# (FORMAT.md); a `case "claim_route":` is a move type (the play page's hooks), not a kind.
_MARKER = re.compile(r'\bcase\s+"([A-Z]\w*)"\s*:'
                     r'|\b(?:e|event|ctx\.event)\??\.kind\s*[!=]==\s*"(\w+)"'
                     r'|^ {2}([A-Z]\w+):\s*\(', re.M)
# Where it ends at the latest: a `default:`, the next method or function, a closing brace
# at the start of a line.
_STOP = re.compile(r'\bdefault\s*:|^ {2}\w+\([^)]*\)\s*\{|^(?:export\s+)?function\b|^\}', re.M)
# A field read: `d.field` (each renderer's alias of `event.data`) or `<event>.data.field`.
_FIELD = re.compile(r'(?<![\w.])(?:d|(?:e|event|ctx\.event)\.data)\??\.(\w+)')
_JOINER = re.compile(r'[\s|&()]*')
"""What may stand between two kinds that share their code (`case "A": case "B":`, `A || B`)."""


def fields_read(source: str) -> dict[str, set[str]]:
    """Kind -> the data fields the code for that kind reads. A `case` (or a handler) covers
    the code up to the next one, comparisons of the kind inside it included; a comparison
    covers the code up to the next marker of either sort."""
    read: dict[str, set[str]] = defaultdict(set)
    markers = list(_MARKER.finditer(source))
    blocks = [m for m in markers if m.group(2) is None]
    pending: list[str] = []
    for marker in markers:
        kind = next(group for group in marker.groups() if group)
        following = blocks if marker.group(2) is None else markers
        end = next((m.start() for m in following if m.start() > marker.start()), len(source))
        stop = _STOP.search(source, marker.end(), end)
        code = source[marker.end():stop.start() if stop else end]
        pending.append(kind)
        if _JOINER.fullmatch(code) and stop is None:
            continue  # `case "A": case "B":` and `A || B` share the code that follows
        for each in pending:
            read[each] |= set(_FIELD.findall(code))
        pending = []
    return dict(read)


def declared(catalogue: Catalogue, kind: str) -> set[str]:
    return {record_key(f) for f in dataclasses.fields(catalogue.kinds[kind]) if f.name not in Event.BASE_FIELDS}


def problems(source: str, catalogues: list[Catalogue], strict: bool) -> list[str]:
    """What `source` reads that no catalogue declares. `strict`: a kind no catalogue knows
    is a problem too (for a game that declares its kinds)."""
    found = []
    for kind, fields in sorted(fields_read(source).items()):
        knowing = [c for c in catalogues if kind in c]
        if not knowing:
            if strict:
                found.append(f"{kind}: no such kind")
            continue
        known = set().union(*(declared(c, kind) for c in knowing))
        found += [f"{kind}.{field}: not a field of {kind}" for field in sorted(fields - known)]
    return found


def _game_renderers() -> list[str]:
    return sorted(name for name in games.names() if renderer(name).is_file())


@pytest.mark.parametrize("game", _game_renderers())
def test_a_game_renderer_reads_only_declared_fields(game: str) -> None:
    decider = games.current(game)
    source = renderer(game).read_text(encoding="utf-8")
    own = decider.events
    # Until a game declares its kinds, only its renderer's reads of the core's are checked.
    catalogues = [decider.catalogue] if len(own) else [CORE]
    assert problems(source, catalogues, strict=len(own) > 0) == []
    assert fields_read(source), f"{game}.js: no kind found; has the renderer's style changed?"


def test_the_shared_viewer_code_reads_only_declared_fields() -> None:
    every_game = [games.current(name).catalogue for name in games.names()]
    for path in [*sorted((STATIC / "js").glob("*.js")), RENDERERS / "generic.js"]:
        assert problems(path.read_text(encoding="utf-8"), every_game, strict=False) == [], path.name
    wording = fields_read((STATIC / "js" / "wording.js").read_text(encoding="utf-8"))
    assert set(CORE.kinds) - {"SeedRevealed"} <= {kind for kind, fields in wording.items() if fields}


def test_the_reader_finds_kinds_and_fields_as_the_renderers_write_them() -> None:
    ticket_to_ride = fields_read(renderer("ticket_to_ride").read_text(encoding="utf-8"))
    assert {"route", "points", "trains_left"} <= ticket_to_ride["RouteClaimed"]
    assert {"count"} <= ticket_to_ride["TicketsDealt"] and {"count"} <= ticket_to_ride["TicketsDrawn"]
    assert {"kind", "detail", "seat"} <= ticket_to_ride["AdjustmentMade"]
    age_of_steam = fields_read(renderer("age_of_steam").read_text(encoding="utf-8"))
    assert {"turn"} <= age_of_steam["TurnBegan"] and {"income_vp", "seat"} <= age_of_steam["FinalScored"]


def test_a_misspelt_field_or_kind_is_found() -> None:
    catalogue = games.current("ticket_to_ride").catalogue
    source = '''
  describe(event, ctx) {
    const d = event.data || {};
    switch (event.kind) {
      case "RouteClaimed": return `${d.route} for ${d.pionts}`;
      case "TicketsDealt":
      case "TicketsDrawn": return `${d.count} tickets`;
      case "TurnStrated": return "turn";
      default: return null;
    }
  },

  marks(events) {
    for (const e of events) if (e.kind === "TurnStarted") label(e.data.seats);
  },
'''
    assert problems(source, [catalogue], strict=True) == [
        "RouteClaimed.pionts: not a field of RouteClaimed", "TurnStarted.seats: not a field of TurnStarted",
        "TurnStrated: no such kind"]
