"""Attacks on a running game's hidden cards, made as an attacker makes them: over HTTP, with
only the tokens the attacker holds. The tests and `benchmarks/fault_suite.py` run them
against a real server; each returns what the attacker could read that it may not
(`findings`): an empty list is the promise kept.

- `fork_attack`: a referee forks a running Ticket to Ride game and bots finish the fork.
  The public, a seat of the original and a seat of the fork then try every way the server
  hands out records or state for a hidden card of the running original (its deck order,
  the hands, the tickets kept and offered), and try to predict the original's next draw.
- `stream_attack`: a seat's stream is opened with its token; a referee hands the seat to a
  bot and back (a fresh token); the new holder's secret draws must not reach the old stream.

What counts as a hidden card is read from the answer's shape, for any game that keeps the
view convention (what only seat N may see lives under `seats[N]`): a secret whose value is
shown to a reader it is not addressed to, a view holding another seat's private part or a
deck's order.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from service.tlog import is_proof_line
from tests.support.http import Client, Reply
from tests.support.sse import Stream
from tests.support.volley import Game, new_game

PRIVATE_SEAT_PARTS = ("hand", "kept_tickets", "offered_tickets", "returning_tickets")
"""The parts of a seat's entry in a Ticket to Ride view only that seat (and referees) see."""
ORDERS = ("deck_order", "ticket_deck_order", "discard_pile")
"""The piles' orders only referees see."""
WAIT_LIMIT = 180.0
"""The longest any wait of an attack lasts before it gives up (a bound on a hang, not a speed)."""


@dataclass
class Findings:
    """What an attack could read that it may not, and what it tried."""

    leaks: list[str] = field(default_factory=list)
    tried: int = 0
    notes: dict[str, Any] = field(default_factory=dict)
    games: dict[str, Game] = field(default_factory=dict)
    """The games the attack made, with their tokens (not part of the report)."""

    def to_json(self) -> dict[str, Any]:
        return {"leaks": self.leaks[:20], "leak_count": len(self.leaks), "requests_tried": self.tried, **self.notes}


# -- what a hidden card looks like in an answer ---------------------------------------------------

def hidden(value: Any, seat: int | None, where: str = "") -> Iterator[str]:
    """Each hidden card in a JSON answer read by `seat` (None: the public): a secret's value
    addressed to others, another seat's private part of a view, a pile's order."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from hidden(item, seat, f"{where}/{index}")
        return
    if not isinstance(value, dict):
        return
    if isinstance(value.get("secrets"), list) and "kind" in value:
        for secret in value["secrets"]:
            if isinstance(secret, dict) and "value" in secret and seat not in secret.get("to", []):
                yield f"{where}: a secret of {value['kind']} (version {value.get('version')}) to {secret.get('to')}"
    for key in ORDERS:
        if key in value:
            yield f"{where}/{key}"
    if isinstance(value.get("seats"), list):
        for index, entry in enumerate(value["seats"]):
            if isinstance(entry, dict) and index != seat:
                yield from (f"{where}/seats/{index}/{part}" for part in PRIVATE_SEAT_PARTS if part in entry)
    for key, item in value.items():
        if key != "secrets":
            yield from hidden(item, seat, f"{where}/{key}")


def lines_of(reply: Reply) -> list[Any]:
    """A JSON Lines answer's objects (the client keeps a body that is not one JSON value as text)."""
    if isinstance(reply.body, str):
        return [json.loads(line) for line in reply.body.splitlines() if line.strip()]
    return [reply.body] if reply.body is not None else []


FIRST_BOARD = re.compile(r'<script type="application/json" data-first-board="[^"]*"[^>]*>(.*?)</script>', re.S)


def first_board(reply: Reply) -> list[Any]:
    """What a replay page carries for its first board (the JSON inside the page)."""
    text = reply.body if isinstance(reply.body, str) else ""
    return [json.loads(body) for body in FIRST_BOARD.findall(text)]


# -- playing, as the honest players and referee do -----------------------------------------------

def play(client: Client, game: Game, moves: int, chooser: random.Random, tokens: dict[int, str] | None = None,
         prefer: str | None = None) -> int:
    """Up to `moves` moves by whoever is to act, each seat with its own token; `prefer`: a
    move type taken whenever it is offered (e.g. `draw_card` from the deck). Returns the
    game's version."""
    tokens = tokens or game.seat_tokens
    version = 0
    for _ in range(moves):
        summary = client.get(game.path, token=game.referee_token).body
        version = summary["version"]
        if summary["status"] != "active" or not summary["active_seats"]:
            break
        seat = chooser.choice(summary["active_seats"])
        offered = client.get(f"{game.path}/legal-moves", token=tokens[seat]).body["moves"]
        preferred = [m for m in offered if prefer is not None and _is(m, prefer)]
        move = {k: v for k, v in chooser.choice(preferred or offered).items() if k != "seat"}
        reply = client.post(f"{game.path}/moves", move, token=tokens[seat])
        if reply.status != 201:
            raise AssertionError(f"a legal move was refused: {reply.status} {reply.body}")
        version = reply.body["now"]["version"]
    return version


def _is(move: dict[str, Any], wanted: str) -> bool:
    kind, _, source = wanted.partition(":")
    return move.get("type") == kind and (not source or move.get("source") == source)


def stream_of(url: str, token: str | None) -> Stream:
    """A stream opened as a client opens one: a server process that holds all the streams it
    may says so (503 with Retry-After), and the client comes back (maybe to another)."""
    started = time.monotonic()
    while True:
        stream = Stream(url, token=token, timeout=30)
        if stream.status != 503 or time.monotonic() - started > WAIT_LIMIT:
            return stream
        time.sleep(float(stream.headers.get("retry-after", "1")) / 4)


def retried(client: Client, path: str, body: Any, token: str) -> Reply:
    """A referee's action sent again while a bot's move wins the race to the game (409/412),
    as a referee's client does (the seat handed to a bot a moment ago may be moving)."""
    for _ in range(20):
        reply = client.post(path, body, token=token)
        if reply.status not in (409, 412):
            return reply
        time.sleep(0.1)
    return reply


def waited(what: str, condition: Any) -> Any:
    started = time.monotonic()
    while not (found := condition()):
        if time.monotonic() - started > WAIT_LIMIT:
            raise TimeoutError(f"gave up waiting for {what} after {WAIT_LIMIT} s")
        time.sleep(0.1)
    return found


def events_of(reply: Reply) -> list[dict[str, Any]]:
    """The events of an export: its lines but the proof line it ends with (FORMAT.md)."""
    return [line for line in lines_of(reply) if not is_proof_line(line)]


def full_records(client: Client, game: Game) -> list[dict[str, Any]]:
    return events_of(client.get(f"{game.path}/export", token=game.referee_token))


# -- the fork attack ------------------------------------------------------------------------------

def fork_attack(client: Client, chooser: random.Random | None = None) -> Findings:
    """Fork a running game, let bots finish the fork (a bot runner must be running against
    the server's store), then read everything as the public, as a seat of the original and
    as a seat of the fork, and try to predict the original's next draw."""
    chooser = chooser or random.Random(35)
    origin = new_game(client, ["ada", "bo"])
    play(client, origin, 14, chooser)
    at = client.get(origin.path, token=origin.referee_token).body["version"]
    reply = client.post(f"{origin.path}/fork", {"referee": "rita", "at_version": at, "reason": "what if"},
                        token=origin.referee_token)
    if reply.status != 201:
        raise AssertionError(f"the fork was refused: {reply.status} {reply.body}")
    fork = Game.of(reply.body)
    for seat in fork.seat_tokens:
        taken = retried(client, f"{fork.path}/seats/{seat}/bot", {"level": "random", "reason": "let the bots finish it"},
                        fork.referee_token)
        if taken.status != 201:
            raise AssertionError(f"the fork's seat {seat} was not handed to a bot: {taken.status} {taken.body}")
    waited("the bots to finish the fork",
           lambda: client.get(fork.path, token=fork.referee_token).body["status"] == "finished")
    if client.get(origin.path, token=origin.referee_token).body["status"] != "active":
        raise AssertionError("the original must still be running for the attack to mean anything")

    found = Findings(notes={"origin": origin.game_id, "fork": fork.game_id, "forked_at": at,
                            "fork_events": client.get(fork.path, token=fork.referee_token).body["version"]},
                     games={"origin": origin, "fork": fork})
    readers = [("the public", None, None, None), ("the original's seat 1", origin.seat_tokens[1], None, 1),
               ("the fork's seat 1", fork.seat_tokens[1], 1, None)]
    for who, token, seat_in_fork, seat_in_origin in readers:
        for game, seat in ((fork, seat_in_fork), (origin, seat_in_origin)):
            found.leaks += [f"{who}: {leak}" for leak in read_everything(client, game, token, seat, found, at)]
        listed = client.get(f"/api/v1/games?forked_from={origin.game_id}", token=token).body
        found.tried += 1
        if any(g["game_id"] == fork.game_id and g["scores"] for g in listed.get("games", [])):
            found.leaks.append(f"{who}: the listing shows the fork's final scores, from the hidden cards' play")
    # The detector itself: the fork's referee reads the same and must find the hidden cards.
    control = list(read_everything(client, fork, fork.referee_token, None, Findings(), at))
    found.notes["control_finds_hidden_cards"] = len(control)
    found.notes.update(predict_next_draw(client, origin, fork, at, chooser))
    if found.notes["prediction_right"]:
        found.leaks.append(f"the public predicted the original's next draw from the fork: {found.notes['predicted_draw']}")
    return found


def read_everything(client: Client, game: Game, token: str | None, seat: int | None, found: Findings,
                    at: int) -> Iterator[str]:
    """Every way the server hands out a game's records or state, asked with `token` (None:
    the public) read as `seat` of this game (None: no seat of it); each hidden card found,
    named by where it was read. `at`: a version to travel to."""
    last = client.get(game.path, token=game.referee_token).body["version"]
    paths = [game.path, f"{game.path}/state", f"{game.path}/state?at={at}", f"{game.path}/state?at={last}",
             f"{game.path}/events", f"{game.path}/export", f"{game.path}/board", f"{game.path}/scores",
             f"{game.path}/timeline", f"{game.path}/income", f"{game.path}/disputes", f"{game.path}/audit",
             f"/games/{game.game_id}/replay/views?from={max(1, last - 150)}&to={last}",
             f"/games/{game.game_id}/replay/views?from={at}&to={at}", f"/games/{game.game_id}/replay/notation",
             f"/api/v1/games/export?ids={game.game_id}", "/api/v1/games/export"]
    for path in paths:
        reply = client.get(path, token=token)
        found.tried += 1
        for item in lines_of(reply):
            yield from (f"GET {path}{leak}" for leak in hidden(item, seat))
    text = client.get(f"{game.path}/export?format=text", token=token)
    found.tried += 1
    if text.status == 200 and _unfinished_or_withheld(client, game):
        yield f"GET {game.path}/export?format=text: the score sheet, folded from the full record"
    page = client.get(f"/games/{game.game_id}/replay")
    found.tried += 1
    for item in first_board(page):
        yield from (f"GET /games/{game.game_id}/replay (the first board it carries){leak}" for leak in hidden(item, None))
    yield from streamed(client, game, token, seat, last, found)


def _unfinished_or_withheld(client: Client, game: Game) -> bool:
    """Whether the game may not be shown whole yet: running, or a fork whose origin runs."""
    summary = client.get(game.path, token=game.referee_token).body
    if summary["status"] != "finished":
        return True
    forked = [e for e in full_records(client, game) if e["kind"] == "ForkedFrom"]
    return any(client.get(f"/api/v1/games/{e['data']['origin']}").body.get("status") != "finished" for e in forked)


def streamed(client: Client, game: Game, token: str | None, seat: int | None, last: int,
             found: Findings) -> Iterator[str]:
    """The game's live stream, read from its start until its last record (or its end)."""
    found.tried += 1
    with stream_of(f"{client.base}{game.path}/stream", token) as stream:
        if stream.status != 200:
            return
        try:
            for record in stream.records_until(last, within=30):
                yield from (f"GET {game.path}/stream{leak}" for leak in hidden(record, seat))
        except (ConnectionError, TimeoutError):
            return


def predict_next_draw(client: Client, origin: Game, fork: Game, at: int, chooser: random.Random) -> dict[str, Any]:
    """As the public: the original's deck as it stood at the fork, read from the fork (its
    view then), less the cards the original has drawn from it since (its public deck count),
    gives its next card; then a seat of the original draws from the deck, and the
    prediction is compared with the card drawn."""
    order: list[str] | None = None
    for path in (f"{fork.path}/state?at={at}", f"/games/{fork.game_id}/replay/views?from={at}&to={at}"):
        reply = client.get(path)
        views = reply.body.get("views", [reply.body]) if isinstance(reply.body, dict) else []
        for view in views:
            state = view.get("state") if isinstance(view, dict) else None
            if isinstance(state, dict) and isinstance(state.get("deck_order"), list):
                order = state["deck_order"]
    for _ in range(40):  # the original's seats play on until one draws from the deck
        before = client.get(origin.path, token=origin.referee_token).body["version"]
        deck = client.get(f"{origin.path}/state").body["state"]["deck"]
        drawn_since = len(order) - deck if order is not None else -1
        predicted = order[drawn_since] if order is not None and 0 <= drawn_since < len(order) else None
        play(client, origin, 1, chooser, prefer="draw_card:deck")
        drawn = [e for e in full_records(client, origin)[before:] if e["kind"] == "CardDrawn" and e["data"]["source"] == "deck"]
        if drawn:
            actual = drawn[0]["secrets"][0]["value"]["card"]
            return {"predicted_draw": predicted, "actual_draw": actual, "prediction_right": predicted == actual}
    raise AssertionError("no seat of the original drew from the deck")


# -- the stream attack ----------------------------------------------------------------------------

def stream_attack(client: Client, chooser: random.Random | None = None, elsewhere: Client | None = None) -> Findings:
    """A seat's stream opened with its token; the referee hands the seat to a bot and back
    (a fresh token), and the new holder plays on until a secret draw of the seat is stored:
    nothing after the hand-back may reach the old stream with a secret of the seat's.
    `elsewhere`: another server (process, host) of the same store, through which the
    referee and the players act while the stream stays open on the first."""
    chooser = chooser or random.Random(36)
    stream_client, client = client, elsewhere or client
    game = new_game(client, ["ada", "bo"])
    play(client, game, 4, chooser)
    start = client.get(game.path, token=game.referee_token).body["version"]
    seat, old = 0, game.seat_tokens[0]
    found = Findings()
    with stream_of(f"{stream_client.base}{game.path}/stream?after={start}", old) as stream:
        if stream.status != 200:
            raise AssertionError(f"the seat's stream did not open: {stream.status} {stream.problem}")
        taken = client.post(f"{game.path}/seats/{seat}/bot", {"level": "random"}, token=game.referee_token)
        if taken.status != 201:
            raise AssertionError(f"the seat was not handed to a bot: {taken.status} {taken.body}")
        received = stream.records_until(taken.body["version"], within=30)  # the stream worked until then
        back = retried(client, f"{game.path}/seats/{seat}/hand-back", {"reason": "ada is back"}, game.referee_token)
        if back.status != 201:
            raise AssertionError(f"the seat was not handed back: {back.status} {back.body}")
        handed_back, fresh = back.body["version"], back.body["token"]
        tokens = {**game.seat_tokens, seat: fresh}

        def secret_draw_since() -> bool:
            play(client, game, 1, chooser, tokens, prefer="draw_card:deck")
            return any(s["to"] == [seat] for e in full_records(client, game)[handed_back:] for s in e["secrets"])

        waited("a secret draw of the seat's new holder", secret_draw_since)
        last = client.get(game.path, token=game.referee_token).body["version"]
        ended = False
        try:
            while not received or received[-1]["version"] < last:
                received.append(stream.next_event(within=30).data)
        except ConnectionError:
            ended = True
        except TimeoutError:
            found.leaks.append("the old stream stayed open and silent instead of ending")
        found.tried = 3  # the stream, the takeover, the hand-back; and the reconnect below
        found.notes["frames_received"] = len(received)
        after = [r for r in received if r["version"] >= handed_back]
        found.leaks += [f"the old stream{leak}" for leak in hidden(after, None)]
        found.leaks += [f"the old stream carried version {r['version']} ({r['kind']}), after the hand-back" for r in after]
        found.notes.update({"handed_back_at": handed_back, "last_version": last, "old_stream_ended": ended,
                            "frames_after_hand_back": len(after)})
    again = stream_of(f"{stream_client.base}{game.path}/stream?after={handed_back}", old)
    again.close()
    if again.status != 401:
        found.leaks.append(f"the old token opened a new stream: {again.status}")
    return found
