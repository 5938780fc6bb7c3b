"""Writes the reference pack (`packs/reference/`): the project's own numbers, not the
publisher's. The JSON files are what is shipped and validated; this script only keeps
their generation reproducible. Run: `python -m domain.railway_boom.packs.make_reference`."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "reference"
COLS, ROWS = 16, 12
TRACKS = ("money", "materials", "technology", "coal", "vp")
RESOURCES = TRACKS[:4]
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def board(rng: random.Random) -> list[dict[str, Any]]:
    hexes: list[dict[str, Any]] = []
    for row in range(ROWS):
        for col in range(COLS):
            q, r = col - row // 2, row
            edge = col in (0, COLS - 1) or row in (0, ROWS - 1)
            sea = (edge and rng.random() < 0.3) or (col >= COLS - 2 and row >= ROWS - 2)
            terrain = "sea" if sea else rng.choice(("plain", "plain", "plain", "forest", "forest", "mountain", "river"))
            power = {"plain": 1, "forest": 2, "mountain": 3, "river": 2, "sea": 0}[terrain]
            hexes.append({"id": f"{chr(65 + row)}{col + 1}", "q": q, "r": r, "terrain": terrain, "power": power})
    land = [h for h in hexes if h["terrain"] != "sea"]
    # Cities never side by side (q - r = 0 mod 3 is a set of hexes no two of them adjacent),
    # so lines have room between them.
    spaced = [h for h in land if (h["q"] - h["r"]) % 3 == 0]
    cities = rng.sample(spaced, 50)
    for index, h in enumerate(cities):
        h["city"] = "normal" if index < 36 else "tourist"
    assert len(cities) == 50, len(cities)
    for index, h in enumerate(c for c in cities if c["city"] == "normal"):
        h["first_game_tile"] = f"N{index + 1:02d}"
    return hexes


def tracks() -> dict[str, Any]:
    plus = {"money": [3, 4, 5, 6, 7, 8, 9, 10], "materials": [2, 3, 4, 5, 6, 7, 8, 9],
            "technology": [2, 3, 4, 5, 6, 7, 8, 9], "coal": [2, 3, 3, 4, 5, 5, 6, 7], "vp": [0, 1, 1, 2, 2, 3, 4, 5]}
    icons = {3: {"type": "gain_vp", "amount": 2}, 5: {"type": "gain_resource", "resource": "coal", "amount": 2},
             7: {"type": "gain_vp", "amount": 4}}
    income = {t: [{"plus": p, **({"icon": icons[n]} if n in icons else {})} for n, p in enumerate(values, start=1)]
              for t, values in plus.items()}
    return {"income": income, "start_resources": 8, "bid_track_max": 30, "tiles_per_kind": 20, "rails": 30,
            "stations": 4, "cubes": 23,
            "priority": {"2": ["full", "none"], "3": ["full", "half", "none"], "4": ["full", "full", "half", "none"]}}


def city_tiles(rng: random.Random) -> list[dict[str, Any]]:
    tiles: list[dict[str, Any]] = [{"id": f"N{i + 1:02d}", "kind": "normal", "resource": TRACKS[i % 5], "power": 3 + i % 4}
                                   for i in range(36)]
    effects = [{"type": "gain_vp", "amount": 2}, {"type": "gain_resource", "resource": "money", "amount": 3},
               {"type": "gain_resource", "resource": "coal", "amount": 2}, {"type": "extra_power", "amount": 2},
               {"type": "raise_income", "resource": "vp"}, {"type": "gain_vp", "amount": 3},
               {"type": "raise_income", "resource": "technology"}]
    tiles += [{"id": f"T{i + 1:02d}", "kind": "tourist", "effect": effects[i % len(effects)]} for i in range(14)]
    return tiles


def trains() -> list[dict[str, Any]]:
    colours = ("red", "blue", "green", "yellow")
    out: list[dict[str, Any]] = [{"id": f"S-{c}", "kind": "starting", "colour": c, "cost": 0, "coal": 1, "vp": 1, "slots": 1}
                                 for c in colours]
    loco_effects: list[dict[str, Any] | None] = [None, {"type": "gain_resource", "resource": "money", "amount": 2},
                                                 {"type": "gain_vp", "amount": 1}, None,
                                                 {"type": "raise_income", "resource": "coal"}]
    for i in range(22):
        loco: dict[str, Any] = {"id": f"L{i + 1:02d}", "kind": "locomotive", "cost": 0, "coal": 1 + i % 3,
                                "vp": 1 + i % 4, "slots": 1 + i % 2}
        if loco_effects[i % 5]:
            loco["effect"] = loco_effects[i % 5]
        out.append(loco)
    car_effects: list[dict[str, Any] | None] = [None, {"type": "gain_resource", "resource": "materials", "amount": 1},
                                                None, {"type": "gain_resource", "resource": "technology", "amount": 1}]
    for i in range(30):
        car: dict[str, Any] = {"id": f"C{i + 1:02d}", "kind": "car", "cost": 2 + i % 5, "coal": 1, "vp": 1 + i % 3,
                               "slots": i % 2}
        if car_effects[i % 4]:
            car["effect"] = car_effects[i % 4]
        out.append(car)
    return out


def developments() -> list[dict[str, Any]]:
    kinds: list[tuple[str, dict[str, Any], int]] = [
        ("immediate", {"type": "gain_resource", "resource": "money", "amount": 4}, 2),
        ("immediate", {"type": "gain_resource", "resource": "coal", "amount": 3}, 2),
        ("immediate", {"type": "gain_resource", "resource": "materials", "amount": 3}, 2),
        ("immediate", {"type": "gain_vp", "amount": 3}, 3),
        ("immediate", {"type": "raise_income", "resource": "money"}, 3),
        ("immediate", {"type": "raise_income", "resource": "coal"}, 3),
        ("immediate", {"type": "raise_income", "resource": "chosen"}, 4),
        ("immediate", {"type": "free_rails", "amount": 2}, 3),
        ("immediate", {"type": "draw_two_buy_one", "amount": 1}, 1),
        ("automatic", {"type": "vp_per_rail_on_terrain", "terrain": "mountain", "amount": 1}, 3),
        ("automatic", {"type": "vp_per_rail_on_terrain", "terrain": "forest", "amount": 1}, 2),
        ("automatic", {"type": "train_tile_bonus", "amount": 1}, 4),
        ("once_per_round", {"type": "extra_power", "amount": 3}, 2),
        ("once_per_round", {"type": "free_car_run", "amount": 1}, 3),
    ]
    out = []
    for i in range(74):
        timing, effect, price = kinds[i % len(kinds)]
        out.append({"id": f"D{i + 1:02d}", "timing": timing, "price": price + (i // len(kinds)) % 2, "effect": effect})
    return out


def goals() -> list[dict[str, Any]]:
    conditions: list[dict[str, Any]] = [
        {"condition": "rails_on_terrain", "terrain": "forest"}, {"condition": "rails_on_terrain", "terrain": "mountain", "per": 1},
        {"condition": "terrains_reached"}, {"condition": "development_cards", "per": 2}, {"condition": "train_cards"},
        {"condition": "income_level", "track": "money"}, {"condition": "income_level", "track": "vp"},
        {"condition": "longest_straight"}, {"condition": "shared_hexes"},
    ]
    resources = (*RESOURCES, "any")
    return [{"id": f"G{i + 1:02d}", "resource": resources[i % 5], **conditions[i % len(conditions)],
             "multipliers": [4, 3, 2, 1], "blocked": {"2": [1, 3], "3": [2]}} for i in range(18)]


def path(hexes: list[dict[str, Any]], a: str, b: str) -> list[str] | None:
    at = {(h["q"], h["r"]): h for h in hexes}
    by_id = {h["id"]: h for h in hexes}
    came: dict[str, str | None] = {a: None}
    queue = deque([a])
    while queue:
        here = by_id[queue.popleft()]
        if here["id"] == b:
            break
        for dq, dr in DIRECTIONS:
            n = at.get((here["q"] + dq, here["r"] + dr))
            if n is not None and n["terrain"] != "sea" and n["id"] not in came:
                came[n["id"]] = here["id"]
                queue.append(n["id"])
    if b not in came:
        return None
    chain, step = [], b
    while step is not None:
        chain.append(step)
        step = came[step]  # type: ignore[assignment]
    return chain[::-1]


def routes(hexes: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    cities = [h["id"] for h in hexes if h.get("city") == "normal"]
    out: list[dict[str, Any]] = []
    used: set[str] = set()
    while len(out) < 7:
        a, b = rng.sample(cities, 2)
        chain = path(hexes, a, b)
        if chain is None or not 5 <= len(chain) <= 9 or {a, b} & used:
            continue
        used |= {a, b}
        out.append({"id": f"R{len(out) + 1}", "ends": [a, b], "hexes": chain})
    return out


def stations(hexes: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    cities = [h["id"] for h in hexes if h.get("city") == "normal"]
    numbers = rng.sample(range(1, 100), len(cities))
    return [{"id": f"ST{n:02d}", "number": n, "city": c} for n, c in zip(numbers, cities, strict=True)]


def main() -> None:
    rng = random.Random(1825)
    hexes = board(rng)
    files = {
        "board.json": {"hexes": hexes}, "tracks.json": tracks(), "city_tiles.json": city_tiles(rng),
        "trains.json": trains(), "stations.json": stations(hexes, rng), "developments.json": developments(),
        "goals.json": goals(), "routes.json": routes(hexes, rng),
    }
    manifest = {
        "id": "reference", "game": "railway_boom", "version": "1",
        "title": "Railway Boom — the project's reference content",
        "files": list(files),
        "project_reference": "The Caboose project's own reference content, written to the counts of docs/rules/railway_boom.md; "
                             "no card, tile, number or map here is the publisher's. Generated by "
                             "domain/railway_boom/packs/make_reference.py.",
        "licence": "Written by the Caboose project for its own tests and demos; use freely.",
    }
    HERE.mkdir(exist_ok=True)
    for name, value in {"pack.json": manifest, **files}.items():
        (HERE / name).write_text(json.dumps(value, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
