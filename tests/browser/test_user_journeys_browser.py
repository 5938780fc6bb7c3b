"""One journey per kind of user, in a real browser over real HTTP, from a server started as the
README's run command starts it (`caboose serve`: the installed console script, the embedded
SQLite store, its notifier and bot runner in the same process), each in English, Thai and
Traditional Chinese at 1400 px and on a 390 px phone:

- a referee: a dispute raised by a player and ruled, the game forked at the disputed event,
  both games audited; then the dispute, the ruling and the fork read on their pages;
- a play-by-email player: a game made in the lobby with a seat left open, the invite opened
  in a second browser and joined, both seats playing on their play pages, the waiting player
  told by mail (a real mail server on loopback) with the link to his play page, which opens
  in his browser; the other player's program, a client generated from the OpenAPI document,
  is called by a real webhook and plays its move;
- a table transcriber: a score sheet with some forced moves written out and others left out,
  read by `caboose transcribe --from`, then both kinds of forced move read on the game's page.

(The replay viewer's journey, which needs the demo's games, is `test_viewer_journey.py`.)

Each page fails on an English word left on a Thai or Chinese page (`english_on`: the names
the page marks as proper names and the players' names aside), on a seat called by its
number where its player's name belongs, on a page wider than the screen, and on a script
error. Screenshots go to test-artifacts/browser/journeys/."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.english import english_on
from tests.browser.support import PHONE, WIDE
from tests.browser.test_play_browser import choose, offered
from tests.e2e.test_journeys import read_as, sheet_with_forced_moves_written_out, until
from tests.support.generated_client import generate
from tests.support.loopback_mail import Mailbox
from tests.support.receiver import Receiver
from tests.support.served import CABOOSE, Served

LANGUAGES = ["en", "th", "zh-TW"]
WIDTHS = {"1400": WIDE, "390": PHONE}
SHEETS = Path(__file__).resolve().parents[1] / "sheets"
# A seat called by its number, in any of the three languages (the pages' own words for it).
SEAT_NUMBER = re.compile(r"(?:\bseat|ที่นั่ง|座位)\s*#?\s*(\d+)", re.IGNORECASE)


# -- the server, its mail server and webhook receiver -----------------------------------------

@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, mailbox: tuple[Mailbox, int]) -> Iterator[Served]:
    env = {"CABOOSE_WEBHOOK_ALLOW_NETWORKS": "127.0.0.0/8", "CABOOSE_SMTP_HOST": "127.0.0.1",
           "CABOOSE_SMTP_PORT": str(mailbox[1]), "CABOOSE_RATE_LIMIT_EXPENSIVE": "600/minute"}
    with Served(tmp_path_factory.mktemp("browser-journeys"), env=env) as server:
        yield server


# -- what every page must be ------------------------------------------------------------------

def named(text: str, names: list[str | None], where: str) -> None:
    """Every seat number in `text` stands beside its player's name ("Eli (seat 1)"), never in
    its place ("seat 1's turn"); an open seat (None: nobody has it yet) is its number."""
    for match in SEAT_NUMBER.finditer(text):
        number = int(match.group(1))
        around = text[max(0, match.start() - 40):match.end() + 3]
        assert number < len(names), f"{where}: no seat {number}: {around!r}"
        name = names[number]
        assert name is None or name in around, f"{where}: a seat number where a name belongs: {around!r}"


def reads_well(page: Any, language: str, width: dict[str, int], names: list[str | None], where: str,
               typed: tuple[str, ...] = ()) -> None:
    """The page in the reader's language (the words people `typed` aside), no seat called by
    its number, no wider than the screen, no script error."""
    assert page.evaluate("() => document.documentElement.lang") == language, where
    if language != "en":
        left = english_on(page, typed)
        assert left == {}, f"{where} in {language}: English left: {left}"
    named(page.evaluate("() => document.body.innerText"), names, where)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width["width"], f"{where} is {wide} px wide at {width['width']} px"
    assert not page.errors, (where, page.errors)


def shoot(page: Any, artifacts: Path, name: str) -> None:
    (artifacts / "journeys").mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "journeys" / f"{name}.png"))


def at(page: Any, version: int) -> str:
    """The page stepped to `version`: the sentence it shows for that event."""
    page.evaluate("(v) => replay.go(v)", version)
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version === '{version}'", timeout=15_000)
    page.wait_for_function(f"() => (document.querySelector('#current-event')?.textContent || '').startsWith('{version}. ')",
                           timeout=15_000)
    return page.text_content("#current-event") or ""


def row_tag(page: Any, version: int) -> str:
    return page.eval_on_selector(f'#event-list li[data-version="{version}"]',
                                 "li => li.querySelector('.tag')?.textContent || ''")


# -- a referee ---------------------------------------------------------------------------------

CLAIM, RULING, REASON = "The deck was not shuffled after the wipe.", "Replay from before the draw.", "the upheld dispute"
TYPED = ("Rita", CLAIM, RULING, REASON)
"""What the referee and the players typed: their words, in their language, on every page."""


@pytest.fixture(scope="module")
def refereed(served: Served) -> dict[str, Any]:
    """A Ticket to Ride game of Ann's and Ben's: Ben disputes a draw, the referee Rita upholds
    it and forks the game before the draw; the fork plays on; both audits pass."""
    client = served.client()
    created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]}).body
    game_id, tokens, referee = created["game_id"], created["seat_tokens"], created["referee_token"]
    base = f"/api/v1/games/{game_id}"
    for seat in ("0", "1"):
        move = client.get(f"{base}/legal-moves", token=tokens[seat]).body["moves"][0]
        assert client.post(f"{base}/moves", move, token=tokens[seat]).status == 201
    mover = client.get(base).body["active_seats"][0]
    drawn = client.post(f"{base}/moves", {"type": "draw_card", "source": "deck"}, token=tokens[str(mover)]).body["version"]
    raised = client.post(f"{base}/disputes", {"referee": "Rita", "version": drawn, "raised_by": ["Ann", "Ben"][1 - mover],
                                              "claim": CLAIM}, token=referee)
    assert raised.status == 201, raised.body
    dispute = raised.body["events"][0]["version"]
    ruled = client.post(f"{base}/disputes/{dispute}/ruling", {"referee": "Rita", "outcome": "upheld",
                                                              "text": RULING}, token=referee)
    assert ruled.status == 201, ruled.body
    forked = client.post(f"{base}/fork", {"referee": "Rita", "at_version": drawn - 1, "reason": REASON},
                         token=referee)
    assert forked.status == 201, forked.body
    fork, fork_referee = forked.body["game_id"], forked.body["referee_token"]
    seat = client.get(f"/api/v1/games/{fork}", token=fork_referee).body["active_seats"][0]
    assert client.post(f"/api/v1/games/{fork}/moves", {"type": "draw_card", "source": "deck"},
                       token=forked.body["seat_tokens"][str(seat)]).status == 201
    fork_records = client.get(f"/api/v1/games/{fork}/events", token=fork_referee).body["events"]
    forked_at = next(r["version"] for r in fork_records if r["kind"] == "ForkedFrom")
    for audited, token in ((game_id, referee), (fork, fork_referee)):
        report = client.get(f"/api/v1/games/{audited}/audit", token=token).body
        assert report["ok"] and report["first_problem"] is None, report
    return {"game_id": game_id, "referee": referee, "dispute": dispute, "ruling": ruled.body["events"][0]["version"],
            "fork": fork, "fork_referee": fork_referee, "forked_at": forked_at, "raised_by": ["Ann", "Ben"][1 - mover]}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_referee_reads_the_dispute_the_ruling_and_the_fork(served: Served, refereed: dict[str, Any], reader: Any,
                                                             artifacts: Path, language: str, width: str) -> None:
    names = ["Ann", "Ben"]
    page = reader(language, f"{served.base}/games/{refereed['game_id']}/replay#token={refereed['referee']}", WIDTHS[width])
    assert page.get_attribute("#audience", "data-audience") == "referee"
    said = at(page, refereed["dispute"])
    assert refereed["raised_by"] in said and CLAIM in said, said
    tags = {row_tag(page, refereed["dispute"])}
    reads_well(page, language, WIDTHS[width], names, "the dispute", TYPED)
    said = at(page, refereed["ruling"])
    assert "Rita" in said and RULING in said, said
    tags.add(row_tag(page, refereed["ruling"]))
    # The rows are tagged in the reader's words: two different tags, neither English unless read in English.
    assert len(tags) == 2 and all(tags), tags
    if language != "en":
        assert not tags & {"dispute", "ruling"}, tags
    reads_well(page, language, WIDTHS[width], names, "the ruling", TYPED)
    shoot(page, artifacts, f"referee-{language}-{width}")

    fork = reader(language, f"{served.base}/games/{refereed['fork']}/replay#token={refereed['fork_referee']}", WIDTHS[width])
    said = at(fork, refereed["forked_at"])
    assert "Rita" in said and REASON in said, said
    reads_well(fork, language, WIDTHS[width], names, "the fork", TYPED)


# -- a table transcriber ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def transcribed(served: Served, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The Age of Steam sheet, every other forced move written out, read by `caboose transcribe
    --from` into a table game made by `caboose new --table`."""
    folder = tmp_path_factory.mktemp("sheet")
    lines, written, left = sheet_with_forced_moves_written_out(folder / "sheet.txt")
    assert written >= 5 and left >= 5

    def caboose(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(CABOOSE), *args, "--db", served.db], capture_output=True, text=True, timeout=300)

    made = caboose("new", "age_of_steam", "--player", "Ann", "--player", "Bob", "--player", "Cat", "--table",
                   "--observed", str(SHEETS / "age_of_steam.observed.json"), "--json")
    assert made.returncode == 0, made.stderr
    game = json.loads(made.stdout)
    read = caboose("transcribe", game["game_id"], "--from", str(folder / "sheet.txt"))
    assert read.returncode == 0 and read.stdout.strip().endswith("the game is over"), read.stdout[-500:] + read.stderr
    records = served.client().get(f"/api/v1/games/{game['game_id']}/events?limit=5000").body["events"]
    return {**game, "lines": lines, "records": records}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_transcriber_reads_the_sheet_back_forced_moves_written_out_and_left_out(
        served: Served, transcribed: dict[str, Any], reader: Any, artifacts: Path, language: str, width: str) -> None:
    names = ["Ann", "Bob", "Cat"]
    page = reader(language, f"{served.base}/games/{transcribed['game_id']}/replay", WIDTHS[width])
    assert page.get_attribute("#status", "data-status") == "finished"
    reads_well(page, language, WIDTHS[width], names, "the transcribed game")
    ended = [r for r in transcribed["records"] if r["kind"] == "BuildEnded"]
    assert len(ended) >= 2, [r["kind"] for r in transcribed["records"]][:50]
    for record in ended[:2]:
        said = at(page, record["version"])
        assert names[record["data"]["seat"]] in said, said
        reads_well(page, language, WIDTHS[width], names, f"event {record['version']}")
    shoot(page, artifacts, f"transcriber-{language}-{width}")


# -- a play-by-email player -------------------------------------------------------------------

PEOPLE = ("Ann", "Ben", "Bob", "Cat", "Rita")
"""Every name typed into this server's games: the lobby lists them all."""


@pytest.fixture(scope="module")
def generated(served: Served, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The client generated from the served OpenAPI document, imported as `caboose_client`."""
    package = generate(served.base, tmp_path_factory.mktemp("client"))
    sys.path.insert(0, str(package))
    try:
        import caboose_client
        yield caboose_client
    finally:
        sys.path.remove(str(package))
        for name in [n for n in sys.modules if n == "caboose_client" or n.startswith("caboose_client.")]:
            del sys.modules[name]


def held(page: Any, game_id: str) -> dict[str, Any]:
    """The seat token this browser keeps for the game (the lobby keeps them in localStorage)."""
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('caboose.lobby.tokens') || '[]')")
    return next(k for k in kept if k["game_id"] == game_id and k["seat"] is not None)


def version_of(served: Served, game_id: str) -> int:
    return int(served.client().get(f"/api/v1/games/{game_id}").body["version"])


def active(served: Served, game_id: str) -> list[int]:
    return list(served.client().get(f"/api/v1/games/{game_id}").body["active_seats"])


def play_on_page(served: Served, page: Any, game_id: str, kind: str) -> None:
    """The seat plays its first offered move of `kind` on its page (the deck for a card), and
    the page moves on past it."""
    version = version_of(served, game_id)
    moves = offered(page, version)
    move = next(m for m in moves if m["type"] == kind and m.get("source", "deck") == "deck")
    choose(page, move)
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}", timeout=15_000)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_play_by_email_player_creates_invites_joins_plays_and_is_told(
        served: Served, generated: Any, hooks: Receiver, mailbox: tuple[Mailbox, int], reader: Any, artifacts: Path,
        language: str, width: str) -> None:
    from caboose_client import AuthenticatedClient
    from caboose_client.api.games import get_legal_moves, post_move
    from caboose_client.api.notifications import put_notifications
    from caboose_client.models import Problem, Subscribe

    size = WIDTHS[width]
    # Ann makes the game in the lobby, Ben's seat left open, and sends him the invite.
    host = reader(language, f"{served.base}/", size)
    host.select_option("#create-game", "ticket_to_ride")
    host.locator("#seat-rows > li").nth(0).locator("[name=seat-name]").fill("Ann")
    assert host.locator("#seat-rows > li").nth(1).locator("[name=seat-open]").is_checked()
    host.click("#create-submit")
    host.wait_for_selector("#created:not([hidden])")
    invite = host.get_attribute('#created-list a[data-invite-seat="1"]', "href")
    game_id = re.search(r"join=([0-9a-f-]+)", invite or "").group(1)
    reads_well(host, language, size, ["Ann", None], "the lobby, the game made", PEOPLE)
    # Ben opens the invite in his own browser and joins.
    guest = reader(language, invite, size)
    guest.fill("#join-name", "Ben")
    guest.click("#join-form button[type=submit]")
    guest.wait_for_selector(f'#my-games > li[data-game-id="{game_id}"]')
    # The games listed again once joined: Ben's name where the open seat was.
    guest.wait_for_function("id => [...document.querySelectorAll('#games > li')].some((li) => li.dataset.gameId === id "
                            "&& li.textContent.includes('Ben'))", arg=game_id, timeout=15_000)
    reads_well(guest, language, size, ["Ann", "Ben"], "the lobby, joined", PEOPLE)
    ann, ben = held(host, game_id), held(guest, game_id)
    assert (ann["seat"], ann["name"], ben["seat"], ben["name"]) == (0, "Ann", 1, "Ben")

    # Ann's program (the generated client) is told of her turns by webhook; Ben, by mail.
    say = {"Accept-Language": language}
    program = AuthenticatedClient(base_url=served.base, token=ann["token"], headers=say)
    hook = f"http://127.0.0.1:{hooks.server_port}/hook"
    mail = f"ben-{language}-{width}@example.test"
    assert not isinstance(put_notifications.sync(game_id, client=program, body=Subscribe(webhook_url=hook)), Problem)
    bens = AuthenticatedClient(base_url=served.base, token=ben["token"], headers=say)
    assert not isinstance(put_notifications.sync(game_id, client=bens, body=Subscribe(email=mail)), Problem)

    # Each opens the game from "My games" and keeps tickets on the play page.
    pages = {}
    for seat, page in ((0, host), (1, guest)):
        page.click(f'#my-games > li[data-game-id="{game_id}"] .actions a >> nth=0')
        page.wait_for_url(f"{served.base}/games/{game_id}/replay*")
        page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
        assert page.get_attribute("#audience", "data-audience") == f"seat:{seat}"
        pages[seat] = page
    for seat in (0, 1):
        play_on_page(served, pages[seat], game_id, "keep_tickets")
    # Turns go round (either may have the first) until Ben is to move after Ann has moved.
    ann_drew = False
    while not ((now := active(served, game_id)) == [1] and ann_drew):
        ann_drew = now == [0]
        play_on_page(served, pages[now[0]], game_id, "draw_card")
    for seat, page in pages.items():
        reads_well(page, language, size, ["Ann", "Ben"], f"seat {seat}'s play page")
    shoot(pages[0], artifacts, f"email-player-{language}-{width}")

    # Ben is told by mail, in his language, with the link to his play page.
    told = until(lambda: [m for m in mailbox[0].messages if m["To"] == mail], seen=lambda: [m["To"] for m in mailbox[0].messages])
    body = told[-1].get_content().replace("\r\n", "\n")
    subject = " ".join(str(told[-1]["Subject"]).split())
    assert "Ann" in subject and "Ben" in subject, subject
    read_as(language, subject + "\n" + body.replace("Ann draws blind", ""), "the turn mail")
    link = f"{served.base}/#play={game_id}&seat=1"
    assert link in body, body
    # The link opens his play page in the browser that holds his seat.
    guest.goto(link)
    guest.wait_for_url(f"{served.base}/games/{game_id}/replay*")
    guest.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=30_000)
    assert guest.get_attribute("#audience", "data-audience") == "seat:1"
    while active(served, game_id) == [1]:
        play_on_page(served, guest, game_id, "draw_card")
    reads_well(guest, language, size, ["Ann", "Ben"], "Ben's play page from the mail")
    shoot(guest, artifacts, f"email-player-mail-link-{language}-{width}")

    # Ann's program hears of her turn and plays it through the generated client.
    payload = until(lambda: [p for p in (json.loads(b) for _, b in hooks.received)
                             if p["game_id"] == game_id and p["event"] == "your_turn" and p["seat"] == 0 and p["since"]],
                    seen=lambda: hooks.received)[-1]
    assert payload["seat_name"] == "Ann" and payload["link"] == f"{served.base}/#play={game_id}&seat=0", payload
    legal = get_legal_moves.sync(game_id, client=program)
    assert legal is not None and not isinstance(legal, Problem), legal
    move = next(m for m in legal.moves if m.to_dict()["type"] == "draw_card" and m.to_dict().get("source") == "deck")
    before = version_of(served, game_id)
    answer = post_move.sync(game_id, client=program, body=move)
    assert answer is not None and not isinstance(answer, Problem), answer
    # Ben's page hears of the program's move as of anyone's.
    guest.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {before}", timeout=15_000)
    reads_well(guest, language, size, ["Ann", "Ben"], "Ben's page after Ann's program moved")
