"""How a notification leaves the machine: a signed webhook POST, or an email over SMTP."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import smtplib
import socket
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from service.notify.targets import WebhookTargets

SIGNATURE_HEADER = "X-Caboose-Signature"


def signature(secret: str, body: bytes) -> str:
    """`sha256=<hex>`: HMAC-SHA256 of the exact body bytes with the seat's webhook secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def post_webhook(url: str, secret: str, payload: dict[str, Any], targets: WebhookTargets, timeout: float = 10.0) -> None:
    """POST the signed payload to the address `targets` checked for the URL's host (never
    to what the name might resolve to a moment later); redirects are not followed."""
    body = json.dumps(payload, sort_keys=True).encode()
    destination = targets.resolve(url)
    connection = _PinnedHTTPS if destination.scheme == "https" else _PinnedHTTP
    client = connection(destination.host, destination.port, timeout=timeout)
    client.address = destination.address
    try:
        client.request("POST", destination.path, body=body, headers={
            "Content-Type": "application/json", SIGNATURE_HEADER: signature(secret, body),
            "X-Caboose-Delivery": str(payload.get("delivery_id", "")), "User-Agent": "caboose-notifier"})
        status = client.getresponse().status
    finally:
        client.close()
    if not 200 <= status < 300:
        raise OSError(f"webhook answered HTTP {status}")


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to `address`, while the Host header names the URL's host."""

    address = ""

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """Connects to `address`; the certificate is verified for the URL's host."""

    address = ""
    _context: ssl.SSLContext  # set by HTTPSConnection.__init__, not declared by its stubs

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


@dataclass(frozen=True)
class SmtpSettings:
    host: str = "127.0.0.1"
    port: int = 25
    user: str | None = None
    password: str | None = None
    sender: str = "caboose@localhost"
    starttls: bool = False


def send_email(settings: SmtpSettings, to: str, payload: dict[str, Any], timeout: float = 10.0) -> None:
    # The wording (Babel, Flask-Babel's catalogues, every game's title) is loaded by the
    # process that mails, not by every process that reads the settings kept here.
    from service.notify import mail

    message = EmailMessage()
    message["From"], message["To"] = settings.sender, to
    # In the language the seat subscribed in (English: as the payload's summary says).
    message["Subject"], body = mail.message(payload)
    message.set_content(body)
    with smtplib.SMTP(settings.host, settings.port, timeout=timeout) as smtp:
        if settings.starttls:
            smtp.starttls()
        if settings.user:
            smtp.login(settings.user, settings.password or "")
        smtp.send_message(message)
