"""Languages: English, Thai and Traditional Chinese, by gettext catalogues (Flask-Babel).

The language of a request is the one the person chose on a page (the `caboose_lang`
cookie the pages' picker sets), else the best of `Accept-Language`, else English. English
is also the fallback for any sentence a catalogue lacks. Two gettext domains are shipped
under `translations/`: `messages` (templates, problem documents, rule refusals, mails) and
`js` (the pages' scripts, including every event's sentence), the latter handed to the
page as a JSON catalogue inside the page itself.

The domain stays untranslated: a rule refuses with a stable code (and sometimes
parameters); `service.i18n.rules` turns code and parameters into a sentence here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel import Locale, UnknownLocaleError
from babel.support import NullTranslations, Translations

from domain import games

if TYPE_CHECKING:
    from flask import Flask

# Flask and Flask-Babel are imported by the functions that answer a request: a process
# that only words mails or names games (every `caboose` command) does without them.

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
COOKIE = "caboose_lang"
"""The cookie the pages' language picker sets (the picker also keeps the choice in localStorage)."""


@dataclass(frozen=True)
class Language:
    tag: str
    """The BCP 47 tag a page's `lang` attribute and `Accept-Language` use."""
    locale: str
    """The Babel locale, which also names the catalogue's folder under `translations/`."""
    name: str
    """The language's name in itself, for the picker."""


LANGUAGES = (
    Language("en", "en", "English"),
    Language("th", "th", "ไทย"),
    Language("zh-TW", "zh_Hant_TW", "繁體中文"),
)
BY_TAG = {language.tag.lower(): language for language in LANGUAGES}
BY_LOCALE = {language.locale: language for language in LANGUAGES}
ENGLISH = LANGUAGES[0]
DOMAINS = ("messages", "js")




def titles() -> dict[str, tuple[str, str]]:
    """Each registered game: its English title (the catalogues' message id, context `game`,
    as the game declares it, `Decider.title`) and its own name, the one on its box, which is
    always shown beside a translation (`Decider.own_title`, else the title)."""
    out = {}
    for name in games.names():
        rules = games.current_rules(name)
        out[name] = (rules.title, rules.own_title or rules.title)
    return out


def game_name(game: str, fallback: str, locale: str) -> str:
    """A game's name for a reader: in English as the page always named it (`fallback`);
    otherwise the translated name with the game's own beside it (火車嘟嘟 stands alone
    where it is the translation too)."""
    known = titles()
    if locale == ENGLISH.locale or game not in known:
        return fallback
    english, own = known[game]
    translated = translations(locale).upgettext("game", english)
    return own if translated in (own, english) else f"{translated} ({own})"


def title_of(game: str, locale: str) -> str:
    """A game's name for a reader of `locale`: its English name (the ruleset's own name for a
    game without one), else as `game_name` gives it."""
    english = games.current_rules(game).title if game in games.names() else game
    return game_name(game, english, locale)


def language_of(value: str | None) -> Language | None:
    """The shipped language a tag names (`th-TH`, `zh-Hant`, `zh_TW`, `en-GB`), or None.
    Any Chinese tag is answered in Traditional Chinese, the one Chinese shipped."""
    if not value:
        return None
    tag = value.strip().replace("_", "-").lower()
    if tag in BY_TAG:
        return BY_TAG[tag]
    primary = tag.split("-")[0]
    if primary == "zh":
        return BY_TAG["zh-tw"]
    return BY_TAG.get(primary)


def chosen(cookie: str | None, accept: Any) -> Language:
    """The language of a request: the page's choice, else the best of `Accept-Language`
    (by its weights, in the order sent), else English."""
    picked = language_of(cookie)
    if picked is not None:
        return picked
    for value, _quality in accept or ():
        found = language_of(value)
        if found is not None:
            return found
    return ENGLISH


def request_language() -> Language:
    from flask import has_request_context, request

    if not has_request_context():
        return ENGLISH
    return chosen(request.cookies.get(COOKIE), request.accept_languages)


def current() -> Language:
    """The language the current request is answered in (English outside a request)."""
    from flask import has_request_context
    from flask_babel import get_locale

    if not has_request_context():
        return ENGLISH
    return BY_LOCALE.get(str(get_locale()), ENGLISH)


@functools.cache
def translations(locale: str, domain: str = "messages") -> NullTranslations:
    """A language's compiled catalogue of one domain, read once; English has none of its
    own (its sentences are the message ids themselves)."""
    if locale == ENGLISH.locale:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS), [locale], domain)


def gettext_in(locale: str, message: str, **params: Any) -> str:
    """`message` in a language outside any request (mails), with `%(name)s` filled in."""
    text = translations(locale).ugettext(message)
    return text % params if params else text


@functools.cache
def js_catalogue(language: Language) -> dict[str, Any]:
    """What the pages' scripts need to speak a language: its tag, the plural rule's
    number of forms, and `messages`: English message id (with its context as
    `context\\u0004id`, gettext's own joining) -> translation, a list of forms for a
    plural. English sends no messages: the ids are its sentences."""
    out: dict[str, Any] = {"tag": language.tag, "locale": language.locale, "messages": {},
                           "languages": [{"tag": lang.tag, "name": lang.name} for lang in LANGUAGES]}
    # Every game's title as its rules declare it, in English too (no name is made up from an id).
    out["games"] = {game: game_name(game, english, language.locale) for game, (english, _own) in titles().items()}
    if language is ENGLISH:
        return out
    catalogue = translations(language.locale, "js")
    messages: dict[str, Any] = {}
    for key, text in getattr(catalogue, "_catalog", {}).items():
        if isinstance(key, tuple):  # (msgid, plural index)
            msgid, index = key
            forms = messages.setdefault(msgid, [])
            forms.extend([""] * (index + 1 - len(forms)))
            forms[index] = text
        elif key and text:
            messages[key] = text
    out["messages"] = messages
    return out


def format_locale(language: Language) -> Locale:
    try:
        return Locale.parse(language.locale)
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def install(app: Flask) -> None:
    """Flask-Babel over the shipped catalogues, the language in every template
    (`lang`, `i18n_catalogue`), and the scripts' shared helper (`pages/static/js/i18n.js`)."""
    from flask import Blueprint
    from flask_babel import Babel

    Babel(app, locale_selector=lambda: request_language().locale,
          default_translation_directories=str(TRANSLATIONS), default_domain="messages")
    app.register_blueprint(Blueprint("i18n", __name__, template_folder="templates"))

    @app.context_processor
    def language_in_templates() -> dict[str, Any]:
        language = current()
        return {"lang": language, "languages": LANGUAGES, "i18n_catalogue": lambda: js_catalogue(language),
                "game_name": lambda game, fallback: game_name(game, fallback, language.locale)}

    @app.after_request
    def vary_by_language(response: Any) -> Any:
        # What a page or a problem says depends on the language asked for and the one chosen.
        if response.mimetype in ("text/html", "application/problem+json"):
            response.vary.add("Accept-Language")
            response.vary.add("Cookie")
        return response
