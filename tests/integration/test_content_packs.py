"""A user's pack on CABOOSE_CONTENT_PATH is used for a game, pinned by its digest at
creation; replay, audit and import refuse the game when the pack installed under that id
is no longer the same."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.core import fold
from domain.core.audit import audit
from domain.core.errors import MalformedMove, RecordError
from service.application import Caboose
from service.content import CONTENT_PATH, SHELF, load_folder
from service.settings import Settings

USA = Path(__file__).resolve().parents[2] / "domain" / "ticket_to_ride" / "packs" / "usa"


def user_pack(root: Path, pack_id: str = "usa_short", trains: int = 20) -> Path:
    """The USA map with fewer trains per seat, as a user's pack."""
    folder = root / pack_id
    shutil.copytree(USA, folder)
    manifest = json.loads((folder / "pack.json").read_text())
    (folder / "pack.json").write_text(json.dumps({**manifest, "id": pack_id, "title": "USA, short game"}))
    rules = json.loads((folder / "rules.json").read_text())
    (folder / "rules.json").write_text(json.dumps({**rules, "trains_per_player": trains}))
    return folder


@pytest.fixture(autouse=True)
def fresh_shelf() -> Iterator[None]:
    yield
    SHELF.refresh()  # after monkeypatch has put CABOOSE_CONTENT_PATH back


def on_path(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    """Set CABOOSE_CONTENT_PATH as a new process would find it."""
    if value is None:
        monkeypatch.delenv(CONTENT_PATH, raising=False)
    else:
        monkeypatch.setenv(CONTENT_PATH, value)
    SHELF.refresh()


def play_a_little(app: Caboose, game_id: str, moves: int = 8) -> None:
    for _ in range(moves):
        game = app.game(game_id)
        seat = min(game.decider.active_seats(game.state))
        app.play(game_id, seat, game.decider.legal_moves(game.state, seat)[0])


def test_a_users_pack_is_used_and_pinned(app: Caboose, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = user_pack(tmp_path / "packs")
    on_path(monkeypatch, str(tmp_path / "packs"))
    game_id = app.create_game("ticket_to_ride", ["Ann", "Ben"], {"content": "usa_short"})
    play_a_little(app, game_id)
    created = app.records(game_id)[0]["data"]
    pack = load_folder(folder)
    assert created["content"] == {"id": "usa_short", "version": "1", "sha256": pack.sha256}
    assert created["options"]["map"] == "usa_short" and created["options"]["trains_per_seat"] == 20
    assert [seat.trains for seat in app.game(game_id).state.seats] == [20, 20]
    assert app.audit(game_id).ok


def test_the_games_own_option_names_the_pack_too(app: Caboose, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_pack(tmp_path / "packs")
    on_path(monkeypatch, str(tmp_path / "packs"))
    game_id = app.create_game("ticket_to_ride", ["Ann", "Ben"], {"map": "usa_short"})
    assert app.records(game_id)[0]["data"]["content"]["id"] == "usa_short"
    default = app.create_game("ticket_to_ride", ["Ann", "Ben"], {})
    assert app.records(default)[0]["data"]["content"]["id"] == "usa"


def test_an_unknown_pack_is_refused_and_nothing_is_stored(app: Caboose) -> None:
    with pytest.raises(MalformedMove) as refused:
        app.create_game("ticket_to_ride", ["Ann", "Ben"], {"map": "atlantis"})
    assert refused.value.code == "unknown_content"
    assert "'atlantis'" in refused.value.message and "usa" in refused.value.message
    with pytest.raises(MalformedMove) as both:
        app.create_game("ticket_to_ride", ["Ann", "Ben"], {"map": "usa", "content": "usa_short"})
    assert both.value.code == "bad_options"


def test_a_changed_pack_is_refused_on_replay_audit_and_import(app: Caboose, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    original = user_pack(tmp_path / "first")
    on_path(monkeypatch, str(tmp_path / "first"))
    game_id = app.create_game("ticket_to_ride", ["Ann", "Ben"], {"content": "usa_short"})
    play_a_little(app, game_id)
    records = app.records(game_id)
    recorded = load_folder(original).sha256

    # The same id, other bytes: a ticket is worth one point more.
    changed = user_pack(tmp_path / "second")
    tickets = json.loads((changed / "tickets.json").read_text())
    tickets[0]["points"] += 1
    (changed / "tickets.json").write_text(json.dumps(tickets))
    installed = load_folder(changed).sha256
    on_path(monkeypatch, str(tmp_path / "second"))

    with pytest.raises(RecordError) as replayed:
        fold.replay(records)
    message = replayed.value.message
    assert replayed.value.code == "content_mismatch"
    assert "'usa_short'" in message and recorded in message and installed in message

    report = audit(records)
    assert not report.ok and report.first_problem is not None
    assert report.first_problem["version"] == 1 and recorded in report.first_problem["what"]
    assert installed in report.first_problem["what"]

    other = Caboose(Settings(db="memory"))
    with pytest.raises(RecordError) as imported:
        other.import_record(records)
    assert recorded in imported.value.message
    other.close()

    # With both folders on the path, the record finds the pack it was made with.
    on_path(monkeypatch, os.pathsep.join([str(tmp_path / "second"), str(tmp_path / "first")]))
    assert audit(records).ok
    assert fold.replay(records).decider.pack.sha256 == recorded


def test_a_pack_missing_from_the_path_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, app: Caboose) -> None:
    user_pack(tmp_path / "packs")
    on_path(monkeypatch, str(tmp_path / "packs"))
    game_id = app.create_game("ticket_to_ride", ["Ann", "Ben"], {"content": "usa_short"})
    records = app.records(game_id)
    on_path(monkeypatch, None)
    with pytest.raises(RecordError) as missing:
        fold.replay(records)
    assert missing.value.code == "content_missing" and "'usa_short'" in missing.value.message
    assert "CABOOSE_CONTENT_PATH" in missing.value.message


def test_an_age_of_steam_game_pins_the_rust_belt_pack(app: Caboose) -> None:
    game_id = app.create_game("age_of_steam", ["Ann", "Ben", "Cleo"], {})
    created = app.records(game_id)[0]["data"]
    shipped = load_folder(Path(__file__).resolve().parents[2] / "domain" / "age_of_steam" / "packs" / "rust_belt")
    assert created["content"] == {"id": "rust_belt", "version": "1", "sha256": shipped.sha256}
    assert created["options"]["map"] == "rust_belt"
    assert app.audit(game_id).ok


def test_age_of_steam_refuses_a_pack_with_another_map(app: Caboose, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "packs" / "rust_belt_rich"
    shutil.copytree(Path(__file__).resolve().parents[2] / "domain" / "age_of_steam" / "packs" / "rust_belt", folder)
    manifest = json.loads((folder / "pack.json").read_text())
    (folder / "pack.json").write_text(json.dumps({**manifest, "id": "rust_belt_rich"}))
    rules = json.loads((folder / "rules.json").read_text())
    (folder / "rules.json").write_text(json.dumps({**rules, "start_money": 50}))
    on_path(monkeypatch, str(tmp_path / "packs"))
    with pytest.raises(MalformedMove) as refused:
        app.create_game("age_of_steam", ["Ann", "Ben", "Cleo"], {"content": "rust_belt_rich"})
    assert refused.value.code == "content_unplayable" and "rust_belt_rich" in refused.value.message


@pytest.mark.parametrize("content", ["usa", {"id": "usa"}, {"id": "usa", "sha256": 7}, []])
def test_a_record_with_a_malformed_pack_pin_is_refused_clearly(app: Caboose, content: object) -> None:
    game_id = app.create_game("ticket_to_ride", ["Ann", "Ben"], {})
    records = app.records(game_id)
    forged = [{**records[0], "data": {**records[0]["data"], "content": content}}, *records[1:]]
    report = audit(forged)
    assert not report.ok and report.first_problem is not None and report.first_problem["version"] == 1
    with pytest.raises(RecordError) as refused:
        fold.replay(forged)
    assert refused.value.code == "bad_content"
