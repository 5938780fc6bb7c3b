"""A Server-Sent Events client on the standard library, for tests against a server on
loopback: it reads the stream as a browser's EventSource would (events separated by a
blank line, `id:` and `data:` fields, comment lines for heartbeats)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self


@dataclass
class Event:
    id: str | None
    data: Any


@dataclass
class Stream:
    """An open `GET …/stream`: `status`, `headers`, then `next_events(n)` as they come."""

    url: str
    token: str | None = None
    last_event_id: str | None = None
    timeout: float = 10.0
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    problem: Any = None
    heartbeats: int = 0
    retry: int | None = None

    def __post_init__(self) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        self._response: Any = None
        try:
            self._response = urllib.request.urlopen(urllib.request.Request(self.url, headers=headers), timeout=self.timeout)
            self.status = self._response.status
            self.headers = {k.lower(): v for k, v in self._response.headers.items()}
        except urllib.error.HTTPError as error:
            self.status = error.code
            self.headers = {k.lower(): v for k, v in error.headers.items()}
            self.problem = json.loads(error.read() or b"null")

    def next_event(self, within: float | None = None) -> Event:
        """The next event (heartbeats are counted, not returned); TimeoutError after `within` s."""
        deadline = time.monotonic() + (within if within is not None else self.timeout)
        event_id, data = None, []
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError("no event in time")
            line = self._response.readline()
            if not line:
                raise ConnectionError("the stream ended")
            text = line.decode("utf-8").rstrip("\n")
            if text == "":
                if data:
                    return Event(event_id, json.loads("\n".join(data)))
                continue
            if text.startswith(":"):
                self.heartbeats += 1
            elif text.startswith("id:"):
                event_id = text[3:].strip()
            elif text.startswith("data:"):
                data.append(text[5:].lstrip(" "))
            elif text.startswith("retry:"):
                self.retry = int(text[6:].strip())

    def next_events(self, count: int, within: float | None = None) -> list[Event]:
        return [self.next_event(within) for _ in range(count)]

    def records_until(self, version: int, within: float | None = None) -> list[dict[str, Any]]:
        """Every record received until the one at `version`."""
        records: list[dict[str, Any]] = []
        while not records or records[-1]["version"] < version:
            records.append(self.next_event(within).data)
        return records

    def close(self) -> None:
        if self._response is not None:
            self._response.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
