"""One journey per kind of user this service serves over its API and its shell, each from a
server started as the README's run command starts it (`caboose serve`, on the embedded
SQLite store, its notifier and bot runner beside it), over real HTTP, and each in English,
Thai and Traditional Chinese wherever a page or a message is shown to a person:

- a referee: a dispute raised and ruled, a fork at the disputed version, both games audited;
- a play-by-email player, with a client generated from the OpenAPI document: a game made
  with an open seat, an invite, a join, play, and the turn told by a real webhook receiver
  and a real mail server on loopback;
- a table transcriber: a score sheet with some forced moves written out and others left out,
  read by `caboose transcribe --from`, then exported and refused over HTTP.

A journey fails on English the catalogues translate left on a Thai or Chinese page or
message, and on a seat number where a player's name belongs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from domain.core.transcription import Transcript
from tests.browser.test_languages_browser import ENGLISH
from tests.rust_belt import DECIDER as AGE_OF_STEAM
from tests.support.generated_client import generate
from tests.support.http import Client
from tests.support.loopback_mail import Mailbox
from tests.support.receiver import Receiver
from tests.support.served import CABOOSE, Served
from tests.transcription.sheets import forced_written_out

LANGUAGES = ["en", "th", "zh-TW"]
SCRIPT = {"th": re.compile("[\u0e00-\u0e7f]"), "zh-TW": re.compile("[\u4e00-\u9fff]")}
SEAT_NUMBER = re.compile(r"(?:\bseat|ที่นั่ง|座位)\s*(\d+)", re.IGNORECASE)
SHEETS = Path(__file__).resolve().parents[1] / "sheets"


# -- what a reader is shown ------------------------------------------------------------------

class _Visible(HTMLParser):
    """A page's text as a reader sees it: outside scripts, styles and their data."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style", "template")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style", "template") and self._hidden > 0

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.parts.append(data.strip())


def visible(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " ".join(parser.parts)


def read_as(tag: str, text: str, where: str) -> None:
    """`text` is in the reader's language: written in its script, with no English sentence
    the catalogues translate left in it."""
    if tag == "en":
        return
    assert SCRIPT[tag].search(text), f"{where} in {tag} is not in {tag}: {text[:300]}"
    left = sorted(piece for piece in ENGLISH[tag] if piece in text)
    assert left == [], f"{where} in {tag}: English left: {left}"


def named(text: str, names: list[str], where: str) -> None:
    """Every seat number in `text` stands beside its player's name (`Ann (seat 0)`), never
    in its place (`seat 0's turn`)."""
    for match in SEAT_NUMBER.finditer(text):
        number = int(match.group(1))
        around = text[max(0, match.start() - 40):match.end() + 3]
        assert number < len(names) and names[number] in around, f"{where}: a seat number where a name belongs: {around!r}"


def page(served: Served, path: str, tag: str) -> str:
    reply = served.client().get(path, headers={"Accept-Language": tag})
    assert reply.status == 200 and f'<html lang="{tag}">' in reply.body, path
    return visible(reply.body)


# -- the server and its loopback mail and webhook receivers ----------------------------------

@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, mailbox: tuple[Mailbox, int]) -> Iterator[Served]:
    # Audits count as expensive (12 a minute from one address): these journeys make more.
    env = {"CABOOSE_WEBHOOK_ALLOW_NETWORKS": "127.0.0.0/8", "CABOOSE_SMTP_HOST": "127.0.0.1",
           "CABOOSE_SMTP_PORT": str(mailbox[1]), "CABOOSE_RATE_LIMIT_EXPENSIVE": "600/minute"}
    with Served(tmp_path_factory.mktemp("journeys"), env=env) as server:
        yield server


def until(check: Any, seconds: float = 60.0, seen: Any = None) -> Any:
    """`check()` once it answers something (the notifier runs once a second); `seen()` says
    what did arrive, when nothing wanted did."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"nothing arrived in time; arrived: {seen() if seen else None}")


# -- a referee --------------------------------------------------------------------------------

@pytest.mark.parametrize("tag", LANGUAGES)
def test_a_referees_journey_dispute_ruling_fork_audit(served: Served, tag: str) -> None:
    client, say = served.client(), {"Accept-Language": tag}
    created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]}, headers=say).body
    game_id, tokens, referee = created["game_id"], created["seat_tokens"], created["referee_token"]
    base, names = f"/api/v1/games/{game_id}", ["Ann", "Ben"]
    for seat in ("0", "1"):
        move = client.get(f"{base}/legal-moves", token=tokens[seat]).body["moves"][0]
        assert client.post(f"{base}/moves", move, token=tokens[seat]).status == 201
    mover = client.get(base).body["active_seats"][0]
    drawn = client.post(f"{base}/moves", {"type": "draw_card", "source": "deck"}, token=tokens[str(mover)]).body["version"]
    # The other player moves out of turn: told so by name, in the reader's language.
    refused = client.post(f"{base}/moves", {"type": "draw_tickets"}, token=tokens[str(1 - mover)], headers=say)
    assert refused.status == 422 and refused.body["code"] == "not_your_turn"
    assert names[1 - mover] in refused.body["detail"] and names[mover] in refused.body["detail"]
    named(refused.body["detail"], names, "a refusal")
    read_as(tag, refused.body["detail"] + " " + refused.body["title"], "a refusal")

    raised = client.post(f"{base}/disputes", {"referee": "Rita", "version": drawn, "raised_by": names[1 - mover],
                                              "claim": "The deck was not shuffled after the wipe."}, token=referee)
    assert raised.status == 201, raised.body
    dispute = raised.body["events"][0]["version"]
    ruled = client.post(f"{base}/disputes/{dispute}/ruling", {"referee": "Rita", "outcome": "upheld",
                                                              "text": "Replay from before the draw."}, token=referee)
    assert ruled.status == 201, ruled.body
    [listed] = client.get(f"{base}/disputes", token=referee).body["disputes"]
    assert listed["status"] == "ruled" and listed["ruling"]["outcome"] == "upheld", listed
    forked = client.post(f"{base}/fork", {"referee": "Rita", "at_version": drawn - 1, "reason": "the upheld dispute"},
                         token=referee)
    assert forked.status == 201, forked.body
    fork = forked.body["game_id"]
    assert forked.body["forked_from"]["game_id"] == game_id
    # The fork plays on from there, with its own tokens.
    # The fork continues the original's hidden cards while it runs: its referee looks, not the public.
    seat = client.get(f"/api/v1/games/{fork}", token=forked.body["referee_token"]).body["active_seats"][0]
    assert client.post(f"/api/v1/games/{fork}/moves", {"type": "draw_card", "source": "deck"},
                       token=forked.body["seat_tokens"][str(seat)]).status == 201
    for audited, token in ((game_id, referee), (fork, forked.body["referee_token"])):
        report = client.get(f"/api/v1/games/{audited}/audit", token=token).body
        assert report["ok"] and report["first_problem"] is None, report
        text = client.get(f"/api/v1/games/{audited}/audit?format=text", token=token)
        assert text.status == 200 and text.headers["content-type"].startswith("text/plain") and text.body.startswith("OK")
    assert [g["game_id"] for g in client.get(f"/api/v1/games?forked_from={game_id}").body["games"]] == [fork]
    # The pages the referee opens: the lobby and the fork's replay, in the reader's language.
    for path in ("/", f"/games/{fork}/replay"):
        shown = page(served, path, tag)
        read_as(tag, shown, path)
        named(shown, names, path)


# -- a play-by-email player -------------------------------------------------------------------

@pytest.fixture(scope="module")
def generated(served: Served, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The client generated from the served document, imported as `caboose_client`."""
    package = generate(served.base, tmp_path_factory.mktemp("client"))
    sys.path.insert(0, str(package))
    try:
        import caboose_client
        yield caboose_client
    finally:
        sys.path.remove(str(package))
        for name in [n for n in sys.modules if n == "caboose_client" or n.startswith("caboose_client.")]:
            del sys.modules[name]


@pytest.mark.parametrize("tag", LANGUAGES)
def test_a_play_by_email_players_journey(served: Served, generated: Any, hooks: Receiver,
                                         mailbox: tuple[Mailbox, int], tag: str) -> None:
    from caboose_client import AuthenticatedClient
    from caboose_client import Client as Public
    from caboose_client.api.games import create_game, get_game, get_legal_moves, join_game, post_move
    from caboose_client.api.notifications import put_notifications
    from caboose_client.models import CreateGame, Join, Problem, Subscribe

    say = {"Accept-Language": tag}
    public = Public(base_url=served.base, headers=say)
    created = create_game.sync(client=public, body=CreateGame(game="ticket_to_ride", players=["Ann", None]))
    assert created is not None and not isinstance(created, Problem), created
    game_id, ann_token = created.game_id, created.seat_tokens.additional_properties["0"]
    invite = created.invites.additional_properties["1"]
    joined = join_game.sync(game_id, client=public, body=Join(invite=invite, name="Ben"))
    assert joined is not None and not isinstance(joined, Problem) and joined.seat == 1, joined
    ann = AuthenticatedClient(base_url=served.base, token=ann_token, headers=say)
    ben = AuthenticatedClient(base_url=served.base, token=joined.token, headers=say)
    hook = f"http://127.0.0.1:{hooks.server_port}/hook"
    mail = f"ben-{tag}@example.test"
    assert not isinstance(put_notifications.sync(game_id, client=ann, body=Subscribe(webhook_url=hook)), Problem)
    assert not isinstance(put_notifications.sync(game_id, client=ben, body=Subscribe(email=mail)), Problem)

    def play(player: AuthenticatedClient, kind: str) -> None:
        legal = get_legal_moves.sync(game_id, client=player)
        assert legal is not None and not isinstance(legal, Problem), legal
        move = next(m for m in legal.moves if m.to_dict()["type"] == kind and m.to_dict().get("source", "deck") == "deck")
        answer = post_move.sync(game_id, client=player, body=move)
        assert answer is not None and not isinstance(answer, Problem), answer

    play(ann, "keep_tickets")
    play(ben, "keep_tickets")
    # Turns go round (either may have the first) until Ben is to move after Ann has moved.
    ann_drew = False
    while (summary := get_game.sync(game_id, client=public)) is not None and not (summary.active_seats == [1] and ann_drew):
        ann_drew = summary.active_seats == [0]
        play(ann if ann_drew else ben, "draw_card")
    # Ben is told by mail, in the language he subscribed in: which game, what Ann did, where to play.
    told = until(lambda: [m for m in mailbox[0].messages if m["To"] == mail and "Ann draws blind" in m.get_content()],
                 seen=lambda: ([m["To"] for m in mailbox[0].messages],
                               Client(served.base).get(f"/api/v1/games/{game_id}/notifications", token=joined.token).body))
    message = told[-1]
    subject, body = " ".join(str(message["Subject"]).split()), message.get_content().replace("\r\n", "\n")
    assert "Ann" in subject and "Ben" in subject, subject
    assert f"{served.base}/#play={game_id}&seat=1" in body and f"/api/v1/games/{game_id}/legal-moves" in body
    assert "Ann draws blind" in body, body  # the moves since Ben's, in the game's notation
    read_as(tag, subject + "\n" + body.replace("Ann draws blind", ""), "the turn mail")
    named(body, ["Ann", "Ben"], "the turn mail")
    # Ben plays; Ann's program is told by webhook, and follows its links.
    while (summary := get_game.sync(game_id, client=public)) is not None and summary.active_seats != [0]:
        play(ben, "draw_card")
    payload = until(lambda: [told for told in (json.loads(body) for _, body in hooks.received)
                             if told["game_id"] == game_id and told["event"] == "your_turn" and told["seat"] == 0
                             and told["since"]], seen=lambda: hooks.received)[-1]
    assert payload["seat_name"] == "Ann" and payload["since"] == ["Ben draws blind", "Ben draws blind"], payload
    assert payload["link"] == f"{served.base}/#play={game_id}&seat=0"
    legal = Client(served.base).get(payload["legal_moves"].removeprefix(served.base), token=ann_token)
    assert legal.status == 200 and legal.body["seat"] == 0
    # Ben moves out of turn: refused by name, in his language.
    refused = Client(served.base).post(f"/api/v1/games/{game_id}/moves", {"type": "draw_tickets"}, token=joined.token,
                                       headers=say)
    assert refused.status == 422 and "Ben" in refused.body["detail"] and "Ann" in refused.body["detail"]
    read_as(tag, refused.body["detail"], "a refusal")
    named(refused.body["detail"], ["Ann", "Ben"], "a refusal")
    # The page the link opens, in his language.
    shown = page(served, "/", tag)
    read_as(tag, shown, "the lobby")


# -- a table transcriber ----------------------------------------------------------------------

def sheet_with_forced_moves_written_out(path: Path) -> tuple[list[str], int, int]:
    """The Age of Steam sheet with every other forced move written out (the transcript fills
    the others in); returns its lines and how many were written out and left out."""
    observed = json.loads((SHEETS / "age_of_steam.observed.json").read_text(encoding="utf-8"))
    transcript = Transcript(AGE_OF_STEAM, ("Ann", "Bob", "Cat"), {}, observed)
    lines = (SHEETS / "age_of_steam.txt").read_text(encoding="utf-8").splitlines()
    out, written, left = forced_written_out(transcript, lines, every=2)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return out, written, left


@pytest.fixture(scope="module")
def transcribed(served: Served, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("sheet")
    lines, written, left = sheet_with_forced_moves_written_out(folder / "sheet.txt")
    assert written >= 5 and left >= 5 and any(" ends building" in line for line in lines)

    def caboose(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(CABOOSE), *args, "--db", served.db], capture_output=True, text=True, timeout=300)

    made = caboose("new", "age_of_steam", "--player", "Ann", "--player", "Bob", "--player", "Cat", "--table",
                   "--observed", str(SHEETS / "age_of_steam.observed.json"), "--json")
    assert made.returncode == 0, made.stderr
    game = json.loads(made.stdout)
    read = caboose("transcribe", game["game_id"], "--from", str(folder / "sheet.txt"))
    assert read.returncode == 0, read.stdout + read.stderr
    assert read.stdout.strip().endswith("the game is over"), read.stdout[-500:]
    return {**game, "lines": lines, "sheet": folder / "sheet.txt"}


@pytest.mark.parametrize("tag", LANGUAGES)
def test_a_table_transcribers_journey(served: Served, transcribed: dict[str, Any], tag: str) -> None:
    client, say = served.client(), {"Accept-Language": tag}
    game_id, referee, names = transcribed["game_id"], transcribed["referee_token"], ["Ann", "Bob", "Cat"]
    summary = client.get(f"/api/v1/games/{game_id}").body
    assert summary["status"] == "finished" and summary["transcribed"] and [s["name"] for s in summary["seats"]] == names
    # The text export is the sheet as written, forced moves as comments, each build's cost echoed.
    text = client.get(f"/api/v1/games/{game_id}/export?format=text", token=referee).body.splitlines()
    typed = [line.split("#", 1)[0].strip() for line in (SHEETS / "age_of_steam.txt").read_text(encoding="utf-8").splitlines()]
    assert [line for line in text if not line.startswith("#")] == [line for line in typed if line]
    assert any(line.startswith("# forced: ") and line.endswith(" ends building") for line in text)
    assert all(" for $" in line for line in text if " builds " in line and not line.startswith("#"))
    # Dice typed after the end are told that the game is over, in the reader's language.
    late = client.post(f"/api/v1/games/{game_id}/moves", {"type": "pass_move", "seat": 0}, token=referee,
                       headers=say)
    assert late.status == 422 and late.body["code"] == "game_over"
    read_as(tag, late.body["detail"], "a refusal after the end")
    audit = client.get(f"/api/v1/games/{game_id}/audit").body
    assert audit["ok"], audit
    shown = page(served, f"/games/{game_id}/replay", tag)
    read_as(tag, shown, "the transcribed game's page")
    named(shown, names, "the transcribed game's page")
