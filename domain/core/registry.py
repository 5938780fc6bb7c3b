"""The registry of rulesets Caboose can record, by name and ruleset version, and the
content packs their games are played with. It knows no game: the games are registered
from one list, `domain/games.py`.

Old ruleset versions stay registered when a rule changes, so a game replays and audits
under the rules it was created with. A game that reads its maps and cards from content
packs (`domain/core/content.py`) is registered unbound; `current`, `for_options` and
`ruleset` hand out its rules bound to a pack, found on the installed `Shelf` (the service
installs one that reads packs from disk, `service/content.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from domain.core.content import Pack, Schema
from domain.core.decider import Bound, Decider, Game, Unbound
from domain.core.errors import MalformedMove, RecordError

_RULESETS: dict[tuple[str, str], Game] = {}
_CURRENT: dict[str, Game] = {}
CONTENT_OPTION = "content"
"""The option that names a game's pack in every game (a game may have its own name too,
e.g. Ticket to Ride's `map`)."""


class Shelf(Protocol):
    """The installed packs."""

    def packs(self, game: str) -> Sequence[Pack]:
        """Every installed pack of `game`, in search order (the first of an id wins)."""
        ...


_shelf: Shelf | None = None
_changes = 0
"""How often the installed packs may have changed: the shelf says so (`shelf_changed`), so
asking whether they did never calls out of the rules."""
_bound: dict[tuple[int, str], Bound[Any]] = {}
_recorded: tuple[object, dict[tuple[Any, ...], Decider[Any]]] = (None, {})
"""Recorded games' rules by what their creation event says, while the shelf is unchanged: a
stored game asks for its rules on every event it folds."""


def use_shelf(shelf: Shelf) -> None:
    """Install where packs are found (the service does, at import)."""
    global _shelf
    _shelf = shelf
    shelf_changed()


def shelf_changed() -> None:
    """Told by the shelf whenever the installed packs may have changed (a pack added, the
    packs read again)."""
    global _changes
    _changes += 1


def shelf_token() -> object:
    """Changes whenever the installed packs may have changed: rules found while it is the
    same stay the rules."""
    return _changes


def register(decider: Game, *, current_version: bool = True) -> None:
    """Install a ruleset (a new game, or a new version of one): the rules of a game without
    packs, or `Unbound(<rules class>)` for a game that reads content packs. Refuses rules that
    do not subclass `Decider`, rules already bound to a pack, or rules that lack part of the
    contract, naming what is missing."""
    global _recorded
    if isinstance(decider, Bound):
        raise TypeError(f"{type(decider).__name__} is bound to a pack: register the game as Unbound({type(decider).__name__})")
    if not isinstance(decider, Decider | Unbound):
        raise TypeError(f"{decider!r} is not a game: a game's rules subclass domain.core.decider.Decider")
    problems = decider.missing() if isinstance(decider, Unbound) else type(decider).missing()
    if problems:
        raise TypeError(f"{decider!r} does not fulfil the game contract: {'; '.join(problems)}")
    _RULESETS[(decider.name, decider.ruleset_version)] = decider
    _recorded = (None, {})
    if current_version:
        _CURRENT[decider.name] = decider


def names() -> list[str]:
    return sorted(_CURRENT)


def schema(game: str) -> Schema | None:
    """How `game`'s packs are read, or None for a game without content packs."""
    rules = _CURRENT.get(game)
    return None if rules is None else rules.content_schema


def current_rules(name: str) -> Game:
    """The current ruleset of `name`, not bound to any pack (`Unbound` for a game that
    reads content: what is known of the game before a pack is chosen)."""
    return _rules(name)


def _rules(name: str) -> Game:
    try:
        return _CURRENT[name]
    except KeyError:
        known = ", ".join(names()) or "none registered (domain/games.py registers them)"
        raise MalformedMove("unknown_game", f"Unknown game {name!r}; known games: {known}.") from None


def current(name: str) -> Decider[Any]:
    """The ruleset new games of `name` are created with, bound to its default pack."""
    rules = _rules(name)
    return bind(rules, find(name, rules.default_pack)) if isinstance(rules, Unbound) else rules


def for_options(name: str, requested: Mapping[str, Any]) -> tuple[Decider[Any], dict[str, Any]]:
    """The ruleset for a new game of `name` with the options `requested`, bound to the pack
    they name (`content`, or the game's own option such as `map`; else the default), and
    the options with that pack named in the game's own option."""
    rules = _rules(name)
    options = dict(requested) if isinstance(requested, Mapping) else requested
    if not isinstance(rules, Unbound):
        return rules, options  # the game's `options` refuses what is wrong
    if not isinstance(options, dict):
        return current(name), options
    own = rules.pack_option
    named = options.pop(CONTENT_OPTION, None)
    if named is not None and own in options and options[own] != named:
        raise MalformedMove("bad_options", f"Options {CONTENT_OPTION!r} and {own!r} name different packs.")
    pack_id = named if named is not None else options.get(own, rules.default_pack)
    if not isinstance(pack_id, str):
        raise MalformedMove("bad_options", f"Option {own!r} names a content pack by its id, such as {rules.default_pack!r}.")
    try:
        pack = find(name, pack_id)
        bound = bind(rules, pack)
    except RecordError as error:
        code = "unknown_content" if error.code == "content_missing" else error.code
        raise MalformedMove(code, error.message) from None
    return bound, {**options, own: pack.id}


def ruleset(name: str, version: str, pinned: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None) -> Decider[Any]:
    """The exact ruleset a recorded game was created with, bound to the pack it recorded:
    `pinned` is `GameCreated.data.content` (id and sha256). A record made before packs
    names its pack only in its options (or not at all: the default); it is not checked
    against a digest. Raises `RecordError` (`content_mismatch`) when the pack installed
    under that id is not the one recorded, naming the pack and both digests."""
    global _recorded
    if pinned is not None and not (isinstance(pinned, Mapping) and isinstance(pinned.get("id"), str)
                                   and isinstance(pinned.get("sha256"), str)):
        raise RecordError("bad_content", "GameCreated's \"content\" must be an object with the pack's id and sha256.", 1)
    if not isinstance(options, Mapping):
        options = None
    token = shelf_token()
    if _recorded[0] != token:
        _recorded = (token, {})
    recorded = _RULESETS.get((name, version))
    own = recorded.pack_option if isinstance(recorded, Unbound) else None
    named = None if pinned or own is None or options is None else options.get(own)
    key = (name, version, repr(pinned and pinned.get("id")), repr(pinned and pinned.get("sha256")), repr(named))
    known = _recorded[1].get(key)
    if known is not None:
        return known
    known = _recorded[1][key] = _ruleset(name, version, pinned, options)
    return known


def _ruleset(name: str, version: str, pinned: Mapping[str, Any] | None, options: Mapping[str, Any] | None) -> Decider[Any]:
    try:
        rules = _RULESETS[(name, version)]
    except KeyError:
        raise MalformedMove("unknown_ruleset", f"No ruleset {name!r} version {version!r} is installed.") from None
    if not isinstance(rules, Unbound):
        return rules
    if pinned:
        return bind(rules, find(name, str(pinned.get("id")), str(pinned.get("sha256"))))
    pack_id = (options or {}).get(rules.pack_option, rules.default_pack)
    return bind(rules, find(name, str(pack_id)))


def find(game: str, pack_id: str, sha256: str | None = None) -> Pack:
    """The installed pack `pack_id` of `game` (with that digest, when given)."""
    if _shelf is None:
        raise RecordError("content_missing", "No content packs are installed (the service installs them: service/content.py).", 1)
    packs = [pack for pack in _shelf.packs(game) if pack.id == pack_id]
    if not packs:
        known = sorted({pack.id for pack in _shelf.packs(game)})
        raise RecordError("content_missing", f"No {game} content pack {pack_id!r} is installed (installed: "
                          f"{', '.join(known) or 'none'}); add the folder that holds it to CABOOSE_CONTENT_PATH.", 1,
                          {"pack": pack_id})
    if sha256 is None:
        return packs[0]
    for pack in packs:
        if pack.sha256 == sha256:
            return pack
    raise RecordError("content_mismatch", f"Content pack {pack_id!r} differs from the one this game was recorded with: "
                      f"recorded sha256 {sha256}, installed sha256 {', '.join(f'{p.sha256} ({p.where})' for p in packs)}.", 1,
                      {"pack": pack_id})


def bind(rules: Unbound[Any], pack: Pack) -> Bound[Any]:
    """`rules` bound to `pack` (one bound decider per pack, shared)."""
    key = (id(rules), pack.sha256)
    bound = _bound.get(key)
    if bound is None:
        bound = _bound[key] = rules.with_pack(pack)
    return bound

