"""Completeness of the shipped catalogues: every rule code, every event kind of every game
and every message of the pages has its words in Thai and Traditional Chinese; the compiled
`.mo` files say what their `.po` files say; the templates (`.pot`) hold what the sources
ask for today."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from domain import games
from domain.core.kinds import CORE
from domain.core.log import GAME_ENDED
from domain.railway_boom.content import RESOURCES
from service.i18n import DOMAINS, LANGUAGES, TRANSLATIONS
from service.i18n.catalogues import CONFIG, KEYWORDS
from service.i18n.rules import RULE_SENTENCES
from tests.i18n.rule_codes import DOMAIN, rule_codes

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [language for language in LANGUAGES if language.tag != "en"]
JS = ROOT / "service" / "viewer" / "static"
# Codes the rules build at run time: each pattern and the values its hole takes.
PATTERNS = {
    "not_enough_{}": RESOURCES,
    "bad_{}": ("rewind", "fork"),
}


def po(language_locale: str, domain: str) -> Catalog:
    with open(TRANSLATIONS / language_locale / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
        return read_po(f, locale=language_locale)


def pot(domain: str) -> Catalog:
    with open(TRANSLATIONS / f"{domain}.pot", "rb") as f:
        return read_po(f)


def expanded_codes(within: Path = DOMAIN) -> set[str]:
    codes = set()
    for code in rule_codes(within):
        if "{}" in code:
            assert code in PATTERNS, f"the rules build code {code!r} at run time: name its values in PATTERNS"
            codes |= {code.replace("{}", value) for value in PATTERNS[code]}
        else:
            codes.add(code)
    return codes


def test_the_collector_finds_the_rules_codes() -> None:
    codes = expanded_codes()
    # Some of every kind of raise site: a literal, a helper's parameter, a move field's
    # `unknown=`, a subclass's own, an f-string expanded, a code assigned before the raise.
    assert {"route_taken", "lake_hex", "unknown_route", "not_your_turn", "not_enough_coal", "bad_rewind",
            "unknown_content", "hash_mismatch"} <= codes
    assert len(codes) > 150


def shipped() -> dict[str, Path]:
    """Each shipped game (a package of domain/) -> its package's folder."""
    out = {}
    for name in games.names():
        module = sys.modules[games.current_rules(name).module]
        if module.__name__.startswith("domain."):
            out[name] = Path(module.__file__ or "").parent
    return out


def test_every_rule_code_has_a_sentence() -> None:
    """The core's and the tournaments' codes in service/i18n/rules.py; each game's own in
    its rules' `refusals` (`Decider.refusals`), beside the core's."""
    packages = shipped()
    assert set(packages) >= {"ticket_to_ride", "toot_toot"} and all(p.parent == DOMAIN for p in packages.values())
    shared = expanded_codes(DOMAIN / "core") | expanded_codes(DOMAIN / "tournament")
    missing = [f"core: {code}" for code in sorted(shared - set(RULE_SENTENCES))]
    for name, folder in packages.items():
        own = games.current_rules(name).refusals
        missing += [f"{name}: {code}" for code in sorted(expanded_codes(folder) - set(RULE_SENTENCES) - set(own))]
    assert missing == [], f"rule codes without a sentence (service/i18n/rules.py, or the game's refusals): {missing}"


def test_a_game_declares_only_its_own_codes_and_words_a_shared_code_alike() -> None:
    """A game's `refusals` name codes its rules raise and the core does not word; two games
    raising one code word it alike, since a refusal is worded by its code alone."""
    worded: dict[str, str] = {}
    wrong = []
    for name, folder in shipped().items():
        own, raised = games.current_rules(name).refusals, expanded_codes(folder)
        wrong += [f"{name}: {code} is not raised by its rules" for code in sorted(set(own) - raised)]
        wrong += [f"{name}: {code} is the core's" for code in sorted(set(own) & set(RULE_SENTENCES))]
        for code, text in own.items():
            if worded.setdefault(code, text) != text:
                wrong.append(f"{name}: {code} is worded otherwise by another game")
    assert wrong == [], wrong


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.tag)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_has_a_translation(language: object, domain: str) -> None:
    catalogue = po(language.locale, domain)  # type: ignore[attr-defined]
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in pot(domain) if m.id}
    have = {}
    for message in catalogue:
        if message.id and "fuzzy" not in message.flags:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if all(strings):
                have[(message.context, message.id if isinstance(message.id, str) else message.id[0])] = strings
    missing = sorted(wanted - set(have), key=str)
    assert missing == [], f"{language.tag} {domain}: untranslated {missing[:20]}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.tag)
def test_every_rule_sentence_is_translated(language: object) -> None:
    catalogue = po(language.locale, "messages")  # type: ignore[attr-defined]
    translated = {m.id for m in catalogue if m.id and m.string and "fuzzy" not in m.flags}
    every = {**RULE_SENTENCES, **{f"{name}.{code}": text for name in shipped()
                                  for code, text in games.current_rules(name).refusals.items()}}
    missing = sorted(code for code, sentence in every.items() if sentence not in translated)
    assert missing == [], f"{language.tag}: rule codes without a translated sentence: {missing}"  # type: ignore[attr-defined]


def _kinds() -> dict[str, set[str]]:
    """Every event kind a record may hold, by where its sentence lives: the core's
    (wording.js) and each game's (its renderer, `domain/<game>/renderer.js`). Every game's
    `GameEnded` holds its scores and winners (FORMAT.md), so the viewer words it once."""
    out = {"core": {kind.kind for kind in CORE} | {GAME_ENDED}}
    for name in games.names():
        if not type(games.current(name)).__module__.startswith("domain."):
            continue  # a test's own small game, registered by the tests themselves
        out[name] = set(games.current(name).catalogue.kinds) - out["core"]
    return out


def test_every_event_kind_has_its_sentence_in_every_language() -> None:
    """A kind's sentences are the `js` messages with the kind as their context, found in
    the file that words that game's events; each is translated into every language."""
    template = pot("js")
    by_file: dict[str, set[str]] = {}
    for message in template:
        if message.id and message.context:
            for path, _line in message.locations:
                by_file.setdefault(Path(path).as_posix(), set()).add(message.context)
    translated = [{m.context for m in po(language.locale, "js") if m.context and m.string and all(
        m.string if isinstance(m.string, tuple) else (m.string,))} for language in TRANSLATED]
    missing = []
    for owner, kinds in _kinds().items():
        worded_in = "service/viewer/static/js/wording.js" if owner == "core" else f"domain/{owner}/renderer.js"
        for kind in sorted(kinds):
            if kind not in by_file.get(worded_in, set()):
                missing.append(f"{owner}.{kind}: no sentence in {worded_in}")
            for language, have in zip(TRANSLATED, translated, strict=True):
                if kind not in have:
                    missing.append(f"{owner}.{kind}: no {language.tag} sentence")
    assert missing == [], missing


LOOKUP = re.compile(r"""\b(t|tn|pt|tpn)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?""")


def test_every_lookup_in_the_scripts_is_in_the_catalogue() -> None:
    """Extraction misses nothing the scripts ask for (a lookup inside another's arguments
    would be missed by the extractor, and shown in English)."""
    template = pot("js")
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    scripts = [*JS.glob("js/*.js"), *JS.glob("renderers/*.js"), *(ROOT / "domain").glob("*/renderer.js"),
               *(ROOT / "service" / "pages" / "static" / "js").glob("*.js")]
    missing = []
    for script in scripts:
        code = re.sub(r"^\s*//.*$", "", script.read_text(encoding="utf-8"), flags=re.MULTILINE)  # examples in comments
        for call, first, second in LOOKUP.findall(code):
            first, second = (re.sub(r"\\(.)", r"\1", text) for text in (first, second))
            key = (first, second) if call in ("pt", "tpn") else (None, first)
            if key not in ids:
                missing.append(f"{script.name}: {call}({first!r})")
    assert missing == [], missing


PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.tag)
@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_every_placeholder(language: object, domain: str) -> None:
    wrong = []
    for message in po(language.locale, domain):  # type: ignore[attr-defined]
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = {a or b for a, b in PLACEHOLDER.findall(ids[-1])}
        for text in strings:
            got = {a or b for a, b in PLACEHOLDER.findall(text)}
            # A plural's count may be left out where the language words it otherwise.
            if got != wanted and not (len(ids) > 1 and got == wanted - {"n"}):
                wrong.append((ids[0], text))
    assert wrong == [], wrong


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.tag)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogues_match_their_sources(language: object, domain: str) -> None:
    """The service reads the `.mo` files; they must say what the `.po` files say."""
    with open(TRANSLATIONS / language.locale / "LC_MESSAGES" / f"{domain}.mo", "rb") as f:  # type: ignore[attr-defined]
        compiled = {(m.context, _plain(m.id)): _plain(m.string) for m in read_mo(f) if m.id}
    source = {(m.context, _plain(m.id)): _plain(m.string) for m in po(language.locale, domain) if m.id}  # type: ignore[attr-defined]
    assert compiled == source, "run `python -m service.i18n.catalogues compile`"


def _plain(value: object) -> object:
    return tuple(value) if isinstance(value, list | tuple) else value


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_templates_hold_what_the_sources_ask_for(domain: str, tmp_path: Path) -> None:
    """Extracting again finds no message the shipped `.pot` lacks, and none it holds in vain."""
    out = tmp_path / f"{domain}.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", str(CONFIG[domain]), *KEYWORDS[domain],
                    "--no-wrap", "-o", str(out), "."], check=True, cwd=ROOT, capture_output=True)
    with open(out, "rb") as f:
        fresh = {(m.context, m.id) for m in read_po(f) if m.id}
    shipped = {(m.context, m.id) for m in pot(domain) if m.id}
    assert fresh == shipped, "run `python -m service.i18n.catalogues` to update the catalogues"


SHOWN_BY_NAME = {"ticket_to_ride": {"cities"}, "age_of_steam": {"cities", "towns"}, "railway_boom": {"routes"},
                 "toot_toot": {"maps", "goods", "factories", "colours", "buildings", "players", "recipes", "abilities"}}
"""Each game's kinds of names its renderer (`domain/<game>/renderer.js`) shows from the pack."""


def _shipped_packs() -> list[object]:
    from service.content import load_folder, shipped_folders

    return [pack for pack in map(load_folder, shipped_folders()) if pack.game in SHOWN_BY_NAME]


def test_every_shipped_pack_names_its_things_in_every_language() -> None:
    """The shipped packs' names (`names.json`): every kind a pack names is named for each of
    its ids, in every translated language, so no map, city, building, good, upgrade or card
    name of a shipped pack reads in English on a translated page."""
    packs = _shipped_packs()
    assert {pack.game for pack in packs} >= {"ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"}  # type: ignore[attr-defined]
    missing = []
    for pack in packs:
        schema = games.schema(pack.game)  # type: ignore[attr-defined]
        assert schema is not None
        nameable = schema.nameable(pack.content)  # type: ignore[attr-defined]
        assert pack.names, f"{pack.game}/{pack.id} names nothing"  # type: ignore[attr-defined]
        for kind, named in pack.names.items():  # type: ignore[attr-defined]
            for id_ in nameable[kind]:
                for language in TRANSLATED:
                    if not named.get(id_, {}).get(language.tag):
                        missing.append(f"{pack.game}/{pack.id}: {kind} {id_!r} has no {language.tag} name")  # type: ignore[attr-defined]
    assert missing == [], missing


def test_the_pages_name_what_each_game_shows_by_name() -> None:
    """The kinds the replay page shows by name are the kinds each shipped pack names."""
    for pack in _shipped_packs():
        assert SHOWN_BY_NAME[pack.game] <= set(pack.names), (pack.game, sorted(pack.names))  # type: ignore[attr-defined]
