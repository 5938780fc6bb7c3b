"""Where content packs are found, and reading them from disk.

Packs are looked for, in this order:
1. the packs shipped in the package: `domain/<game>/packs/<id>/`;
2. the folders named by `CABOOSE_CONTENT_PATH` (separated by `os.pathsep`), each either a
   pack itself (it holds a `pack.json`) or a folder of packs (one sub-folder each).
For a new game, the first pack with the asked-for id wins; a recorded game is bound to the
pack with the id and sha256 it recorded, wherever it lies. The domain checks the files
(`domain/core/content.py`); this module only reads them.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from domain import games
from domain.core import content
from domain.core.content import MANIFEST, ContentError, Pack

CONTENT_PATH = "CABOOSE_CONTENT_PATH"
log = logging.getLogger(__name__)


def read_folder(folder: Path) -> dict[str, bytes]:
    """`pack.json`, the files it lists and `names.json` if there is one, by name (a listed
    file that is not there is left out, and the domain names it as missing)."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise ContentError([f"{folder.name}/{MANIFEST}: missing (a pack folder holds a pack.json)"])
    files = {MANIFEST: manifest.read_bytes()}
    try:
        listed = content.read_manifest(folder.name, files[MANIFEST]).files
    except ContentError:
        return files  # the domain reports the manifest's problems
    for name in (*listed, content.NAMES):
        path = folder / name
        if path.is_file():
            files[name] = path.read_bytes()
    return files


def load_folder(folder: Path | str) -> Pack:
    """The pack in `folder`, validated; raises `ContentError` with every problem."""
    folder = Path(folder)
    return content.load(read_folder(folder), games.schema, label=folder.name, where=str(folder.resolve()))


def pack_folders(root: Path) -> Iterator[Path]:
    """`root` itself when it is a pack, else its sub-folders that are."""
    if (root / MANIFEST).is_file():
        yield root
    elif root.is_dir():
        yield from sorted(p for p in root.iterdir() if (p / MANIFEST).is_file())


def shipped_folders() -> Iterator[Path]:
    for name in games.names():
        if games.schema(name) is None:
            continue
        package = games.current_rules(name).module.rpartition(".")[0]
        root = resources.files(package).joinpath("packs")
        if root.is_dir():
            yield from pack_folders(Path(str(root)))


def user_folders(path: str | None = None) -> Iterator[Path]:
    value = os.environ.get(CONTENT_PATH, "") if path is None else path
    for entry in value.split(os.pathsep):
        if entry.strip():
            yield from pack_folders(Path(entry).expanduser())


@dataclass(frozen=True)
class Broken:
    """A folder on the path that does not hold a usable pack."""

    where: str
    problems: tuple[str, ...]


class DiskShelf:
    """The installed packs, read when first needed: `CABOOSE_CONTENT_PATH` is read then, and
    again only on `refresh()` (a game asks for its rules on every event it folds, and
    reading the environment each time would cost more than the fold). Whenever the packs may
    have changed it tells the registry (`shelf_changed`), which rules found before no longer hold."""

    def __init__(self) -> None:
        self._shipped: list[Pack] | None = None
        self._shipped_for: list[str] = []
        """The games whose shipped packs `_shipped` holds: a game registered later is read too."""
        self._user: tuple[str, list[Pack], list[Broken]] | None = None
        self._extra: list[Pack] = []

    def add(self, pack: Pack) -> None:
        """A pack given for this process only (`caboose new --content FOLDER`); it comes
        first in the search order."""
        self._extra.append(pack)
        games.shelf_changed()

    def refresh(self) -> None:
        """Read `CABOOSE_CONTENT_PATH` and its folders again."""
        self._user = None
        games.shelf_changed()

    def _load(self, folders: Iterator[Path]) -> tuple[list[Pack], list[Broken]]:
        packs, broken = [], []
        for folder in folders:
            try:
                packs.append(load_folder(folder))
            except ContentError as error:
                broken.append(Broken(str(folder), error.problems))
            except OSError as error:
                broken.append(Broken(str(folder), (f"{folder}: cannot be read: {error}",)))
        return packs, broken

    def all(self) -> tuple[list[Pack], list[Broken]]:
        if self._shipped is None or self._shipped_for != games.names():
            self._shipped_for = games.names()
            self._shipped, broken = self._load(shipped_folders())
            games.shelf_changed()
            for each in broken:
                log.error("a shipped content pack is broken: %s", "; ".join(each.problems))
        if self._user is None:
            path = os.environ.get(CONTENT_PATH, "")
            user, broken = self._load(user_folders(path))
            for each in broken:
                log.warning("content pack skipped: %s", "; ".join(each.problems))
            self._user = (path, user, broken)
        return [*self._extra, *self._shipped, *self._user[1]], list(self._user[2])

    def packs(self, game: str) -> Sequence[Pack]:
        return [pack for pack in self.all()[0] if pack.game == game]


SHELF = DiskShelf()


def install() -> None:
    games.use_shelf(SHELF)


def summary(pack: Pack) -> dict[str, Any]:
    """One line of `caboose content list --json`."""
    return {"id": pack.id, "game": pack.game, "version": pack.manifest.version, "sha256": pack.sha256,
            "path": pack.where, "title": pack.manifest.title}
