"""Languages over real HTTP (werkzeug's server on loopback, a real SQLite store): the pages
answer in the language asked for, a refused move's problem document too, and a caller who
asks for nothing gets English exactly as before."""

from __future__ import annotations

import random
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from service.application import Caboose
from service.i18n import TRANSLATIONS, translations
from service.i18n.rules import RULE_SENTENCES
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from service.simulation import game_seed
from tests.browser.support import play_random
from tests.e2e.conftest import Client, serving


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Client, Caboose, str, dict[int, str]]]:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/lang.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    game_id, issued = Lobby(app).open_game("ticket_to_ride", ["Ann", "Ben"], seed=game_seed(17, 0))
    play_random(app, game_id, 6, random.Random(17))  # past the opening's ticket choice: one seat to act
    with serving(app) as client:
        yield client, app, game_id, dict(issued.seat_tokens)


def said(locale: str, message: str) -> str:
    return translations(locale).ugettext(message)


def h1(html: str) -> str:
    return unescape(html.split("<h1>", 1)[1].split("</h1>", 1)[0])


@pytest.mark.parametrize(("asked", "locale"), [("th", "th"), ("th-TH,th;q=0.9", "th"), ("zh-TW", "zh_Hant_TW"),
                                               ("zh-Hant", "zh_Hant_TW"), ("fr-FR, zh-TW;q=0.8, en;q=0.5", "zh_Hant_TW")])
def test_the_lobby_answers_in_the_language_asked_for(site: tuple[Client, Caboose, str, dict[int, str]], asked: str,
                                                     locale: str) -> None:
    client = site[0]
    reply = client.get("/", headers={"Accept-Language": asked})
    assert reply.status == 200
    html = reply.body
    assert h1(html) == said(locale, "Railway games by mail") != "Railway games by mail"
    assert f'<html lang="{ {"th": "th", "zh_Hant_TW": "zh-TW"}[locale] }">' in html
    assert said(locale, "Join by invite") in html and "Join by invite" not in html
    # The scripts' catalogue comes inside the page, in the same language.
    assert said(locale, "My games") in html
    assert "Accept-Language" in reply.headers["vary"]


@pytest.mark.parametrize("asked", [None, "en-GB", "fr", "de-DE,fr;q=0.5"])
def test_english_without_a_language_the_site_has(site: tuple[Client, Caboose, str, dict[int, str]], asked: str | None) -> None:
    reply = site[0].get("/", headers={"Accept-Language": asked} if asked else {})
    assert h1(reply.body) == "Railway games by mail" and '<html lang="en">' in reply.body


def test_the_pages_choice_outweighs_accept_language(site: tuple[Client, Caboose, str, dict[int, str]]) -> None:
    client, _app, game_id, _tokens = site
    reply = client.get(f"/games/{game_id}/replay", headers={"Accept-Language": "en", "Cookie": "caboose_lang=th"})
    assert '<html lang="th">' in reply.body
    # The game's name in Thai, with its own name beside it.
    title = said("th", "%(title)s · Caboose replay") % {"title": "ตั๋วรถไฟ (Ticket to Ride)"}
    assert f"<title>{title}</title>" in reply.body
    # A cookie naming a language the site lacks falls back to Accept-Language.
    other = client.get(f"/games/{game_id}/replay", headers={"Accept-Language": "zh-TW", "Cookie": "caboose_lang=xx"})
    assert '<html lang="zh-TW">' in other.body and "鐵道任務 (Ticket to Ride)" in other.body


def test_an_illegal_moves_problem_document_in_thai(site: tuple[Client, Caboose, str, dict[int, str]]) -> None:
    client, app, game_id, tokens = site
    game = app.game(game_id)
    active = game.decider.active_seats(game.state)
    assert len(active) == 1
    idle = next(seat for seat in tokens if seat not in active)
    before = app.game(game_id).version
    replies = {lang: client.post(f"/api/v1/games/{game_id}/moves", {"type": "draw_tickets"}, token=tokens[idle],
                                 headers={"Accept-Language": lang} if lang else {}) for lang in ("th", "zh-TW", None)}
    thai, chinese, plain = replies["th"], replies["zh-TW"], replies[None]
    assert thai.status == chinese.status == plain.status == 422
    assert thai.body["code"] == chinese.body["code"] == plain.body["code"] == "not_your_turn"
    assert thai.body["title"] == said("th", "Illegal move") == "การเดินผิดกติกา"
    # The seats by name, as the players call each other, and who is to move instead.
    names = {0: "Ann", 1: "Ben"}
    [mover] = active
    terms = {"name": names[idle], "to_move": names[mover], "seat": idle}
    assert thai.body["detail"] == said("th", RULE_SENTENCES["not_your_turn"]) % terms
    assert thai.body["detail"] == f"ยังไม่ถึงตาของ {names[idle]} ตอนนี้ถึงตาของ {names[mover]}"
    assert chinese.body["detail"] == f"現在不是 {names[idle]} 的回合；輪到 {names[mover]}。"
    # Asked for nothing: the rule's own English.
    assert plain.body["title"] == "Illegal move"
    assert plain.body["detail"] == f"It is not {names[idle]}'s turn to act; to move: {names[mover]}."
    assert app.game(game_id).version == before  # refused in every language: nothing stored


def test_a_malformed_move_in_chinese_keeps_its_code_and_field(site: tuple[Client, Caboose, str, dict[int, str]]) -> None:
    client, app, game_id, tokens = site
    game = app.game(game_id)
    seat = next(iter(game.decider.active_seats(game.state)))
    before = game.version
    reply = client.post(f"/api/v1/games/{game_id}/moves", {"type": "claim_route", "route": "Nowhere|Else", "cards": {"red": 1}},
                        token=tokens[seat], headers={"Accept-Language": "zh-TW"})
    assert reply.status == 400
    assert reply.body["code"] == "unknown_route" and reply.body["field"] == "route"
    assert reply.body["title"] == "行動格式錯誤" and reply.body["detail"] == "地圖上沒有這條路線。"
    assert app.game(game_id).version == before


def test_other_problems_are_worded_too(site: tuple[Client, Caboose, str, dict[int, str]]) -> None:
    reply = site[0].get("/api/v1/games/no-such-game", headers={"Accept-Language": "th"})
    assert reply.status == 404 and reply.body["code"] == "game_not_found"
    assert reply.body["title"] == "ไม่พบเกม" and reply.body["detail"] == "เซิร์ฟเวอร์นี้ไม่มีเกมรหัสนั้น"


def test_the_catalogues_are_shipped_compiled() -> None:
    """The service reads compiled catalogues; a fresh checkout holds them (no build step)."""
    for locale in ("th", "zh_Hant_TW"):
        for domain in ("messages", "js"):
            assert (TRANSLATIONS / locale / "LC_MESSAGES" / f"{domain}.mo").stat().st_size > 1000
