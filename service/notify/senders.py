"""How a notification leaves the machine: a signed webhook POST, or an email over SMTP."""

from __future__ import annotations

import hashlib
import hmac
import json
import smtplib
import urllib.request
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

SIGNATURE_HEADER = "X-Caboose-Signature"


def signature(secret: str, body: bytes) -> str:
    """`sha256=<hex>`: HMAC-SHA256 of the exact body bytes with the seat's webhook secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def post_webhook(url: str, secret: str, payload: dict[str, Any], timeout: float = 10.0) -> None:
    body = json.dumps(payload, sort_keys=True).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", SIGNATURE_HEADER: signature(secret, body),
        "X-Caboose-Delivery": str(payload.get("delivery_id", "")), "User-Agent": "caboose-notifier"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        if not 200 <= response.status < 300:
            raise OSError(f"webhook answered HTTP {response.status}")


@dataclass(frozen=True)
class SmtpSettings:
    host: str = "127.0.0.1"
    port: int = 25
    user: str | None = None
    password: str | None = None
    sender: str = "caboose@localhost"
    starttls: bool = False


def send_email(settings: SmtpSettings, to: str, payload: dict[str, Any], timeout: float = 10.0) -> None:
    message = EmailMessage()
    message["From"], message["To"] = settings.sender, to
    message["Subject"] = f"Caboose: {payload['summary']}"
    message.set_content(
        f"{payload['summary']}.\n\nGame: {payload['game']} ({payload['game_id']}), version {payload['version']}.\n"
        f"Your seat: {payload['seat']}.\nOpen the game: {payload['link']}\n")
    with smtplib.SMTP(settings.host, settings.port, timeout=timeout) as smtp:
        if settings.starttls:
            smtp.starttls()
        if settings.user:
            smtp.login(settings.user, settings.password or "")
        smtp.send_message(message)
