"""Content packs: a game's maps and cards as data, validated when loaded.

A pack is a set of files: `pack.json` (the manifest) and the JSON data files it lists. The
manifest names the pack (`id`), the game it is for, its `version`, a `title`, the `files`,
where the data come from (`project_reference`) and under what terms (`licence`). Each game
declares how its files are read (its schema, a `load(reader)` function); the result is the
game's immutable content object, which its decider is bound to.

Loading never stops at the first problem: every problem found is collected and reported
together, each naming the file, the entry and what is wrong, e.g.
`usa/routes.json: route "Denver|Omaha": length 0 is not between 1 and 6`.

A pack may also hold `names.json`: what people call the pack's maps, cities, buildings, goods
and cards in each language (`{kind: {id: {language tag: name}}}`, the kinds its game's schema
declares in `nameable`). Names change no rule, so that file is not listed in `files` and is not
part of the digest: names may be added or corrected after games are played with a pack, and
those games still bind to it.

This module sees bytes only; finding packs on disk is the service's business.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from domain.core.state import FrozenDict

MANIFEST = "pack.json"
NAMES = "names.json"
"""Names for people in several languages: beside the manifest, never listed in it, outside the digest."""
LANGUAGE_TAG = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
T = TypeVar("T")
Names = Mapping[str, Mapping[str, Mapping[str, str]]]
"""kind -> id -> language tag (BCP 47: `en`, `th`, `zh-TW`) -> name."""


class ContentError(ValueError):
    """A pack that cannot be used, with every problem found (one line each)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


def digest(files: Mapping[str, bytes]) -> str:
    """The pack's sha256: over each file in sorted name order, its name (UTF-8), a NUL,
    its size in decimal ASCII, a NUL, then its bytes. Names and sizes are included so that
    moving bytes from one file to the next changes the digest."""
    sha = hashlib.sha256()
    for name in sorted(files):
        sha.update(name.encode("utf-8") + b"\0" + str(len(files[name])).encode("ascii") + b"\0")
        sha.update(files[name])
    return sha.hexdigest()


@dataclass(frozen=True)
class Manifest:
    id: str
    game: str
    version: str
    title: str
    files: tuple[str, ...]
    project_reference: str
    licence: str


@dataclass(frozen=True, eq=False)
class Pack:
    """A loaded pack. `content` is the game's own immutable content object. Compared by
    digest: two packs with the same bytes are the same pack."""

    manifest: Manifest
    sha256: str
    content: Any
    where: str = ""
    """Where it was found (a folder), for messages and `caboose content list`."""
    names: Names = field(default_factory=lambda: FrozenDict({}))
    """What people call the content's things in each language (`names.json`; not in the digest)."""

    @property
    def id(self) -> str:
        return self.manifest.id

    @property
    def game(self) -> str:
        return self.manifest.game

    @property
    def pinned(self) -> dict[str, str]:
        """What a game's creation event records of its pack."""
        return {"id": self.id, "version": self.manifest.version, "sha256": self.sha256}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pack) and other.sha256 == self.sha256

    def __hash__(self) -> int:
        return hash(self.sha256)


class Reader:
    """What a game's schema reads its files through: parsed JSON by file name, and a list
    of problems that every check adds to instead of raising."""

    def __init__(self, label: str, files: Mapping[str, bytes]) -> None:
        self.label = label
        self._files = files
        self._parsed: dict[str, Any] = {}
        self.problems: list[str] = []

    def where(self, file: str, entry: str | None = None) -> str:
        return f"{self.label}/{file}" + (f": {entry}" if entry else "")

    def problem(self, file: str, entry: str | None, what: str) -> None:
        self.problems.append(f"{self.where(file, entry)}: {what}")

    def json(self, file: str, expected: type = list) -> Any:
        """The file's JSON, or None (with a problem noted) when it is missing, is not
        UTF-8 JSON, or its top level is not of the `expected` type."""
        if file in self._parsed:
            return self._parsed[file]
        value = None
        raw = self._files.get(file)
        if raw is None:
            self.problems.append(f"{self.label}/{file}: missing (the game needs this file; list it in pack.json)")
        else:
            try:
                value = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as error:
                self.problems.append(f"{self.label}/{file}: not UTF-8 (byte {error.start})")
            except json.JSONDecodeError as error:
                self.problems.append(f"{self.label}/{file}: line {error.lineno}, column {error.colno}: not JSON: {error.msg}")
            else:
                if not isinstance(value, expected):
                    self.problems.append(f"{self.label}/{file}: must be a JSON {_json_name(expected)}, not {_json_name(type(value))}")
                    value = None
        self._parsed[file] = value
        return value

    def entries(self, file: str, noun: str, key: str = "id") -> list[Entry]:
        """The objects of a file holding a JSON array of objects, each named by its `key`;
        a duplicate name is a problem (the later one is skipped)."""
        out: list[Entry] = []
        seen: set[Any] = set()
        for index, value in enumerate(self.json(file) or ()):
            if not isinstance(value, dict):
                self.problem(file, f"entry {index + 1}", f"must be a JSON object, not {_json_name(type(value))}")
                continue
            name = value.get(key)
            label = f"{noun} {json.dumps(name, ensure_ascii=False)}" if isinstance(name, (str, int)) else f"{noun} {index + 1}"
            if not isinstance(name, str) or not name:
                self.problem(file, label, f"\"{key}\" must be a non-empty string")
                continue
            if name in seen:
                self.problem(file, label, f"duplicate {key} (each {noun} needs its own)")
                continue
            seen.add(name)
            out.append(Entry(self, file, label, value))
        return out

    def entry(self, file: str, label: str) -> Entry | None:
        """A file holding one JSON object, read as one entry."""
        value = self.json(file, dict)
        return None if value is None else Entry(self, file, label, value)


class Entry:
    """One object of a file; each getter checks one field and notes a problem when it is
    missing or wrong, returning a harmless default so that checking can go on."""

    def __init__(self, reader: Reader, file: str, label: str, value: dict[str, Any]) -> None:
        self.reader, self.file, self.label, self.value = reader, file, label, value
        self.ok = True

    def problem(self, what: str) -> None:
        self.ok = False
        self.reader.problem(self.file, self.label, what)

    def _get(self, key: str, kind: type | tuple[type, ...], noun: str) -> Any:
        if key not in self.value:
            self.problem(f"\"{key}\" is missing")
            return None
        value = self.value[key]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            self.problem(f"\"{key}\" must be {noun}, not {json.dumps(value, ensure_ascii=False)}")
            return None
        return value

    def text(self, key: str, choices: Iterable[str] | None = None, what: str = "") -> str:
        value = self._get(key, str, "a string")
        if value is None:
            return ""
        if choices is not None:
            allowed = tuple(choices)
            if value not in allowed:
                self.problem(f"{what or key} {json.dumps(value, ensure_ascii=False)} is not one of {', '.join(allowed)}"
                             if len(allowed) <= 12 else f"unknown {what or key} {json.dumps(value, ensure_ascii=False)}")
        return value

    def integer(self, key: str, low: int | None = None, high: int | None = None) -> int:
        value = self._get(key, int, "a whole number")
        if value is None:
            return 0
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"between {low} and {high}" if low is not None and high is not None else (
                f"at least {low}" if low is not None else f"at most {high}")
            self.problem(f"{key} {value} is not {bounds}")
        return value

    def boolean(self, key: str) -> bool:
        value = self._get(key, bool, "true or false")
        return bool(value)

    def mapping(self, key: str) -> dict[str, Any]:
        value = self._get(key, dict, "a JSON object")
        return value if value is not None else {}

    def strings(self, key: str) -> tuple[str, ...]:
        value = self._get(key, list, "a list of strings")
        if value is None:
            return ()
        if not all(isinstance(v, str) for v in value):
            self.problem(f"\"{key}\" must be a list of strings")
            return ()
        return tuple(value)


def _json_name(kind: type) -> str:
    return {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "true/false",
            type(None): "null"}.get(kind, kind.__name__)


class Schema(Protocol):
    """A game's declared content: the files its packs hold, and how they are read."""

    # Read-only, so a schema may declare them as class attributes of narrower types.
    @property
    def game(self) -> str: ...

    @property
    def files(self) -> tuple[str, ...]: ...

    def load(self, reader: Reader) -> Any:
        """The game's immutable content object, or anything (with problems noted on
        `reader`) when the files are wrong."""
        ...

    def nameable(self, content: Any) -> Mapping[str, Collection[str]]:
        """What of the loaded content people see by name, by kind (`{"cities": ids}`): the
        kinds and ids a pack's `names.json` may name."""
        ...


def read_manifest(label: str, raw: bytes | None) -> Manifest:
    reader = Reader(label, {MANIFEST: raw} if raw is not None else {})
    entry = reader.entry(MANIFEST, "")
    if entry is None:
        raise ContentError(reader.problems)
    manifest = Manifest(
        id=entry.text("id"), game=entry.text("game"), version=entry.text("version"), title=entry.text("title"),
        files=entry.strings("files"), project_reference=entry.text("project_reference"), licence=entry.text("licence"))
    if entry.ok and not manifest.id.replace("_", "").replace("-", "").isalnum():
        entry.problem(f"id {manifest.id!r} may hold only letters, digits, \"_\" and \"-\"")
    for name in manifest.files:
        if name == MANIFEST or "/" in name or "\\" in name or name.startswith("."):
            entry.problem(f"file name {name!r} must be a plain file name other than pack.json")
    if len(set(manifest.files)) != len(manifest.files):
        entry.problem("a file is listed twice in \"files\"")
    if reader.problems:
        raise ContentError(reader.problems)
    return manifest


def load(files: Mapping[str, bytes], schemas: Callable[[str], Schema | None], label: str = "", where: str = "") -> Pack:
    """A pack from its files (`pack.json` and the files it lists, by name), validated by its
    game's schema. Raises `ContentError` with every problem found. `label` prefixes each
    problem (the pack's folder name); `where` is kept on the pack for listings."""
    manifest = read_manifest(label or "pack", files.get(MANIFEST))
    label = label or manifest.id
    schema = schemas(manifest.game)
    if schema is None:
        raise ContentError([f"{label}/{MANIFEST}: game {manifest.game!r} is not a game that reads content packs"])
    reader = Reader(label, files)
    for name in schema.files:
        if name not in manifest.files:
            reader.problem(MANIFEST, None, f"\"files\" must list {name} ({manifest.game} packs hold {', '.join(schema.files)})")
    for name in manifest.files:
        if name not in schema.files:
            reader.problem(MANIFEST, None, f"{name} is not a file {manifest.game} packs hold ({', '.join(schema.files)})")
    content = schema.load(reader) if not reader.problems else None
    names = read_names(reader, schema.nameable(content)) if not reader.problems and NAMES in files else FrozenDict({})
    if reader.problems:
        raise ContentError(reader.problems)
    pinned = {name: files[name] for name in (MANIFEST, *manifest.files)}
    return Pack(manifest, digest(pinned), content, where, names)


def read_names(reader: Reader, nameable: Mapping[str, Collection[str]]) -> Names:
    """`names.json`: for each kind the schema names, each id of that kind, its name in each
    language given. Every kind, id, tag and name that is wrong is a problem."""
    out: dict[str, Mapping[str, Mapping[str, str]]] = {}
    for kind, by_id in (reader.json(NAMES, dict) or {}).items():
        where = f"{kind} names"
        if kind not in nameable:
            kinds = ", ".join(sorted(nameable)) or "none"
            reader.problem(NAMES, where, f"{kind!r} is not a kind of name this game reads (it reads: {kinds})")
            continue
        if not isinstance(by_id, dict):
            reader.problem(NAMES, where, f"must be a JSON object of id -> names, not {_json_name(type(by_id))}")
            continue
        kept: dict[str, Mapping[str, str]] = {}
        for id_, names in by_id.items():
            label = f"{kind} {json.dumps(id_, ensure_ascii=False)}"
            if id_ not in nameable[kind]:
                reader.problem(NAMES, label, f"is not one of the pack's {kind}")
            elif not isinstance(names, dict) or not names:
                reader.problem(NAMES, label, "must be a JSON object of language tag -> name, with one name at least")
            else:
                for tag, name in names.items():
                    if not LANGUAGE_TAG.match(tag):
                        reader.problem(NAMES, label, f"{tag!r} is not a language tag (\"en\", \"th\", \"zh-TW\")")
                    elif not isinstance(name, str) or not name.strip():
                        reader.problem(NAMES, label, f"the {tag} name must be a non-empty string")
                kept[id_] = FrozenDict(names)
        out[kind] = FrozenDict(kept)
    return FrozenDict(out)


def frozen_map(items: Iterable[tuple[Any, T]]) -> Mapping[Any, T]:
    """A read-only mapping for content objects (see `domain/core/state.py`)."""
    return FrozenDict(items)
