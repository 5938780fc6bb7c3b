"""A mail server and a webhook receiver on loopback, one of each per test module, for the
journeys that are told of turns by mail and by webhook (`tests/e2e/test_journeys.py` and its
browser twin); the conftests of both folders hand these fixtures on."""

from __future__ import annotations

import email
import email.message
import email.policy
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.support.ports import free_port
from tests.support.receiver import Receiver, receiving


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server: object, session: object, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content, _class=email.message.EmailMessage,
                                                      policy=email.policy.default))
        return "250 OK"


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box, port = Mailbox(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def hooks() -> Iterator[Receiver]:
    with receiving() as server:
        yield server
