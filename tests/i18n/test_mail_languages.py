"""Notification mails in the language each seat subscribed in, through a real local SMTP
server (aiosmtpd) and the real HTTP API: a seat that subscribed asking for Thai gets its
turn notice in Thai, one that asked for Chinese in Chinese (the deadline's moment written
as that language writes dates), one that asked for nothing in English as before."""

from __future__ import annotations

import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from babel.dates import format_datetime

from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.notify.notifier import Backoff, Notifier
from service.notify.senders import SmtpSettings
from service.settings import RateLimits, Settings
from tests.e2e.conftest import serving
from tests.e2e.test_notifications import free_port


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))  # type: ignore[arg-type]
        return "250 OK"


def test_each_seat_is_mailed_in_the_language_it_subscribed_in(tmp_path: Path) -> None:
    store = Caboose(Settings(db=f"sqlite:///{tmp_path}/mail.sqlite", rate_limits=RateLimits.every("1000000/minute")))
    lobby = Lobby(store)
    port = free_port()
    mailbox = Mailbox()
    notifier = Notifier(store, lobby.seating.engine, SmtpSettings(port=port), Backoff(first_seconds=0.05))
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with serving(store, create_app(store, lobby, notifier)) as client:
            created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben", "Cleo"],
                                                    "seed": "02" * 32, "move_deadline": 86400}).body
            base, tokens = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]
            for seat, language in (("0", "th"), ("1", "zh-TW"), ("2", None)):
                reply = client.request("PUT", f"{base}/notifications", {"email": f"seat{seat}@example.test"}, token=tokens[seat],
                                       headers={"Accept-Language": language} if language else {})
                assert reply.status == 200
            # The opening: every seat keeps its tickets; then turns go round and each is told.
            for seat in ("0", "1", "2"):
                move = client.get(f"{base}/legal-moves", token=tokens[seat]).body["moves"][0]
                assert client.post(f"{base}/moves", move, token=tokens[seat]).status == 201
            for _ in range(6):
                seat = str(client.get(base).body["active_seats"][0])
                assert client.post(f"{base}/moves", {"type": "draw_card", "source": "deck"}, token=tokens[seat]).status == 201
            deadline = time.monotonic() + 15
            while {m["To"] for m in mailbox.messages} != {"seat0@example.test", "seat1@example.test", "seat2@example.test"}:
                assert time.monotonic() < deadline, [m["To"] for m in mailbox.messages]
                notifier.run_once()
                time.sleep(0.05)
    finally:
        controller.stop()
    # Each seat's latest notice: its turn, with the move deadline the game was created with.
    latest = {m["To"]: m for m in mailbox.messages}
    thai, chinese, english = (latest[f"seat{n}@example.test"] for n in range(3))
    game_id = created["game_id"]

    subject = " ".join(str(english["Subject"]).split())
    assert subject.startswith("Caboose: It is your turn in Ticket to Ride with Ann, Ben, Cleo: move by "), subject
    text = english.get_content().replace("\r\n", "\n")
    assert "Game: Ticket to Ride" in text and "You play: Cleo." in text
    # What happened since Cleo's last move, in the game's notation, and how to play.
    assert "Since your last move:\n  " in text and " draws blind" in text.split("Since your last move:")[1], text
    assert f"/#play={game_id}&seat=2" in text and f"/api/v1/games/{game_id}/legal-moves" in text

    # (A header's encoded words drop the spaces between them: compared without spaces.)
    def bare(text: str) -> str:
        return "".join(text.split())
    assert bare(str(thai["Subject"])).startswith(bare("Caboose: ถึงตาคุณแล้วใน ตั๋วรถไฟ (Ticket to Ride) กับ Ann, Ben, Cleo: เดินภายใน "))
    body = thai.get_content()
    assert "บอตระดับ" in body and "เกม: ตั๋วรถไฟ (Ticket to Ride)" in body and game_id in body and "คุณเล่นเป็น: Ann" in body
    assert "ตั้งแต่ตาที่แล้วของคุณ:" in body and f"/#play={game_id}&seat=0" in body
    assert "It is your turn" not in body and "Since your last move" not in body and "Play in the browser" not in body

    body = chinese.get_content()
    assert bare(str(chinese["Subject"])).startswith(bare("Caboose：輪到你了：鐵道任務 (Ticket to Ride)，與 Ann, Ben, Cleo 同局：請在 "))
    assert "遊戲：鐵道任務 (Ticket to Ride)" in body and "你扮演：Ben" in body and "自你上一步以來：" in body
    # The deadline's moment as Chinese writes it (Babel), in UTC.
    due = body.split("請在 ", 1)[1].split(" UTC", 1)[0]
    assert "年" in format_datetime(locale="zh_Hant_TW") and "年" in due
