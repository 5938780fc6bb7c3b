"""Bodies the server does not read, over the real gunicorn (infra/gunicorn.conf.py): a client
that sends its whole body before reading the answer (as Python's http.client, curl without
`Expect: 100-continue` and most libraries do) gets the answer it was given — 413 for a body
over the limit, 401 for a refused token — never a connection reset."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.live_server import LiveServer
from tests.support.volley import Game, new_game


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Game]]:
    folder = Path(tmp_path_factory.mktemp("bodies"))
    with LiveServer(f"sqlite:///{folder}/bodies.sqlite", workers=1, threads=4, log_path=folder / "gunicorn.log") as server:
        yield server, new_game(server.client())


def post(server: LiveServer, path: str, body: bytes, token: str, chunked: bool = False) -> tuple[int, dict[str, object]]:
    """Send the whole body, then read the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        if chunked:
            connection.request("POST", path, iter([body[i:i + 65536] for i in range(0, len(body), 65536)]), headers,
                               encode_chunked=True)
        else:
            connection.request("POST", path, body, headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def padded(size: int) -> bytes:
    return b'{"type": "draw_card", "source": "deck", "pad": "' + b"a" * size + b'"}'


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_5_mb_body_is_answered_413(served: tuple[LiveServer, Game], chunked: bool) -> None:
    server, game = served
    status, problem = post(server, f"{game.path}/moves", padded(5_000_000), game.seat_tokens[0], chunked)
    assert status == 413 and problem["code"] == "body_too_large", problem
    assert "262144 bytes" in str(problem["detail"])
    assert server.client().get(game.path).body["version"] == game_version(server, game)


def test_a_body_left_unread_by_a_refusal_does_not_reset_the_connection(served: tuple[LiveServer, Game]) -> None:
    server, game = served
    status, problem = post(server, f"{game.path}/moves", padded(200_000), "made-up-token")
    assert status == 401, problem


def game_version(server: LiveServer, game: Game) -> int:
    """The version after the opening: nothing was ever stored by these requests."""
    records = server.client().get(f"{game.path}/events", token=game.referee_token).body["events"]
    assert all(r["actor"] == "system" for r in records)
    return int(records[-1]["version"])
