"""A notification mail's subject and body, in the language its seat subscribed in.

English mails read as they always have (the payload's `summary`). A mail to a seat that
subscribed in Thai or Chinese is worded here from the notice's kind (`event`) and its
`terms` (score, deadline, bot level), with the deadline's moment and the numbers written
as that language writes them (Babel)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from babel.dates import format_datetime
from babel.numbers import format_decimal

from service.i18n import ENGLISH, game_name, translations
from service.i18n.rules import N_

NOTICES = {
    ("your_turn", False): N_("It is your turn"),
    ("your_turn", True): N_("It is your turn: move by %(due)s, or the %(level)s bot moves for you"),
    ("deadline_set", False): N_("The move deadline changed"),
    ("deadline_set", True): N_("The move deadline changed: move by %(due)s, or the %(level)s bot moves for you"),
    ("game_ended", False): N_("The game has ended; your score is %(score)s"),
    ("ruling", False): N_("A referee recorded %(kind)s at version %(version)s"),
    ("deadline_passed", False): N_("The move deadline passed: the %(level)s bot makes your next move; your later turns are yours"),
}
LEVELS = {"random": N_("random"), "playout": N_("playout"), "greedy": N_("greedy"), "planner": N_("planner")}
SUBJECT = N_("Caboose: %(summary)s")
BODY = N_("%(summary)s.\n\nGame: %(game)s (%(game_id)s), version %(version)s.\nYour seat: %(seat)s.\nOpen the game: %(link)s\n")


def message(payload: dict[str, Any]) -> tuple[str, str]:
    """(subject, body) of the mail a delivery's payload asks for."""
    locale = payload.get("language") or ENGLISH.locale
    summary = payload["summary"] if locale == ENGLISH.locale else _summary(payload, locale)
    say = translations(locale).ugettext
    number = (lambda n: str(n)) if locale == ENGLISH.locale else (lambda n: format_decimal(n, locale=locale))
    values = {"summary": summary, "game": game_name(payload["game"], payload["game"], locale), "game_id": payload["game_id"],
              "version": number(payload["version"]), "seat": payload["seat"], "link": payload["link"]}
    return say(SUBJECT) % values, say(BODY) % values


def _summary(payload: dict[str, Any], locale: str) -> str:
    terms = dict(payload.get("terms") or {})
    sentence = NOTICES.get((payload["event"], "due" in terms)) or NOTICES.get((payload["event"], False)) or ""
    if not sentence:  # a notice newer than this wording: its English summary
        return str(payload["summary"])
    say = translations(locale).ugettext
    if "due" in terms:
        moment = datetime.fromisoformat(str(terms["due"]).replace("Z", "+00:00"))
        terms["due"] = format_datetime(moment, format="medium", tzinfo=UTC, locale=locale) + " UTC"
    if "level" in terms:
        terms["level"] = say(LEVELS.get(str(terms["level"])) or str(terms["level"]))
    for key in ("score", "version"):
        if key in terms:
            terms[key] = format_decimal(terms[key], locale=locale)
    try:
        return say(sentence) % terms
    except (KeyError, TypeError, ValueError):
        return str(payload["summary"])
