"""Hex geometry (R1): hex ids, edges, neighbours, track segments and a train's steps.

A hex is named `"col,row"` in odd-row offset coordinates (rows shifted right on odd rows),
the way a pack's text grid is written. Edges are numbered 0-5 clockwise starting east:
E, SE, SW, W, NW, NE for pointy-topped hexes (a flat-topped pack only draws them turned;
no rule depends on it). The neighbour across edge e is entered at `opp(e)`.
"""

from __future__ import annotations

from collections.abc import Iterator

Hex = str
Segment = tuple[int, int]
"""The two edges a segment joins, the smaller first."""

_AXIAL = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def hex_id(col: int, row: int) -> Hex:
    return f"{col},{row}"


def coords(hex_: Hex) -> tuple[int, int]:
    col, row = hex_.split(",")
    return int(col), int(row)


def opp(edge: int) -> int:
    return (edge + 3) % 6


def neighbour(hex_: Hex, edge: int) -> Hex:
    col, row = coords(hex_)
    q, r = col - (row - (row & 1)) // 2, row
    dq, dr = _AXIAL[edge]
    q, r = q + dq, r + dr
    return hex_id(q + (r - (r & 1)) // 2, r)


def neighbours(hex_: Hex) -> Iterator[tuple[int, Hex]]:
    for edge in range(6):
        yield edge, neighbour(hex_, edge)


def is_segment(a: int, b: int) -> bool:
    """Straight (opposite edges) or a gentle curve (one apart from opposite); never two
    neighbouring edges (R1)."""
    return 0 <= a < 6 and 0 <= b < 6 and (b - a) % 6 in (2, 3, 4)


def segment(a: int, b: int) -> Segment:
    return (a, b) if a < b else (b, a)


def exits_from(entry: int) -> tuple[int, int, int]:
    """The far edges a segment entered at `entry` may end at: the gentle curves and the
    straight line."""
    return ((entry + 2) % 6, (entry + 3) % 6, (entry + 4) % 6)


def ends_at(segments: tuple[Segment, ...], edge: int) -> list[int]:
    """The other ends of the segments of a hex that end at `edge`."""
    return sorted(b if a == edge else a for a, b in segments if edge in (a, b))
