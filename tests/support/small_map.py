"""A small Ticket to Ride map of the tests' own, not the USA: seven lakeside towns, a dozen
routes (one of them double, one with a card colour the USA deck lacks: `teal`), eight tickets
and 12 trains a seat, so a game on it is short. Written as a content pack folder, for a
server to find on `CABOOSE_CONTENT_PATH`."""

from __future__ import annotations

import json
from pathlib import Path

PACK = "lakes"
CITIES = ["Alder", "Birch", "Cedar", "Dunmore", "Elm Cove", "Fernwick", "Glenholm"]
ROUTES = [  # (a, b, length, colour)
    ("Alder", "Birch", 2, "red"), ("Alder", "Cedar", 3, "teal"), ("Birch", "Cedar", 1, "gray"),
    ("Birch", "Dunmore", 3, "blue"), ("Cedar", "Elm Cove", 2, "teal"), ("Dunmore", "Elm Cove", 2, "gray"),
    ("Dunmore", "Fernwick", 4, "green"), ("Elm Cove", "Fernwick", 3, "red"), ("Fernwick", "Glenholm", 2, "blue"),
    ("Elm Cove", "Glenholm", 4, "gray"), ("Alder", "Glenholm", 5, "green"),
]
DOUBLE = ("Birch", "Dunmore", 3, "green")
TICKETS = [("Alder", "Fernwick", 8), ("Birch", "Glenholm", 7), ("Cedar", "Dunmore", 4), ("Alder", "Elm Cove", 5),
           ("Birch", "Fernwick", 6), ("Cedar", "Glenholm", 6), ("Dunmore", "Glenholm", 5), ("Alder", "Dunmore", 5)]
POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10}


def write_pack(root: Path) -> Path:
    """The pack in `root/lakes`; returns the folder."""
    folder = root / PACK
    folder.mkdir(parents=True, exist_ok=True)
    routes = []
    for a, b, length, colour in ROUTES:
        double = (a, b) == DOUBLE[:2]
        routes.append({"id": f"{a}|{b}" + ("#0" if double else ""), "a": a, "b": b, "length": length, "color": colour,
                       "double": double, "lane": 0, "points": POINTS[length]})
    a, b, length, colour = DOUBLE
    routes.append({"id": f"{a}|{b}#1", "a": a, "b": b, "length": length, "color": colour, "double": True, "lane": 1,
                   "points": POINTS[length]})
    files = {
        "pack.json": {"id": PACK, "game": "ticket_to_ride", "version": "1", "title": "Ticket to Ride — Lakes (a test map)",
                      "project_reference": "Made up for the tests: no published map.", "licence": "The project's own.",
                      "files": ["cities.json", "routes.json", "tickets.json", "cards.json", "rules.json"]},
        "cities.json": CITIES,
        "routes.json": routes,
        "tickets.json": [{"id": f"{a}|{b}", "a": a, "b": b, "points": points} for a, b, points in TICKETS],
        "cards.json": {"colours": {"red": 10, "teal": 10, "blue": 10, "green": 10}, "locomotives": 8},
        "rules.json": {"players_min": 2, "players_max": 4, "trains_per_player": 12, "initial_hand_train_cards": 4,
                       "face_up_cards": 5, "face_up_locomotive_reset_threshold": 3,
                       "end_game_trigger_trains_at_or_below": 2, "longest_path_bonus": 10, "initial_tickets_dealt": 3,
                       "initial_tickets_min_keep": 2, "draw_tickets_count": 3, "draw_tickets_min_keep": 1,
                       "returned_tickets_go_to": "bottom of ticket deck", "double_routes_min_players": 4,
                       "route_points_by_length": {str(k): v for k, v in POINTS.items()}},
    }
    for name, value in files.items():
        (folder / name).write_text(json.dumps(value, indent=1), encoding="utf-8")
    return folder
