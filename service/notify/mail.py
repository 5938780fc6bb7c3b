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

from service.i18n import ENGLISH, title_of, translations
from service.i18n.rules import N_

NOTICES = {
    ("your_turn", False): N_("It is your turn in %(game)s with %(players)s"),
    ("your_turn", True): N_("It is your turn in %(game)s with %(players)s: move by %(due)s, or the %(level)s bot moves for you"),
    ("deadline_set", False): N_("The move deadline changed in %(game)s with %(players)s"),
    ("deadline_set", True): N_("The move deadline changed in %(game)s with %(players)s: move by %(due)s, or the %(level)s bot "
                               "moves for you"),
    ("game_ended", False): N_("The game has ended; your score is %(score)s"),
    ("ruling", False): N_("A referee recorded %(kind)s at version %(version)s"),
    ("deadline_passed", False): N_("The move deadline passed: the %(level)s bot makes your next move; your later turns are yours"),
}
LEVELS = {"random": N_("random"), "playout": N_("playout"), "greedy": N_("greedy"), "planner": N_("planner")}
SUBJECT = N_("Caboose: %(summary)s")
SINCE = N_("Since your last move:")
NOTHING_SINCE = N_("Nobody has moved since your last move.")
HOW = N_("Play in the browser that keeps your seat's token: %(link)s\n"
         "Or over the API with your seat's token: GET %(legal_moves)s, then POST one of the moves to %(moves)s "
         "(the API's document: %(docs)s).")
WATCH = N_("Open the game: %(link)s")
BODY = N_("%(summary)s.\n\n%(body)s\n\nGame: %(game)s (%(game_id)s), version %(version)s.\nYou play: %(seat)s.\n")


def message(payload: dict[str, Any]) -> tuple[str, str]:
    """(subject, body) of the mail a delivery's payload asks for: which game, what happened
    since the seat last moved (each move in the game's notation), and how to play."""
    locale = payload.get("language") or ENGLISH.locale
    summary = payload["summary"] if locale == ENGLISH.locale else _summary(payload, locale)
    say = translations(locale).ugettext
    number = (lambda n: str(n)) if locale == ENGLISH.locale else (lambda n: format_decimal(n, locale=locale))
    parts = []
    if "since" in payload:
        since = payload["since"]
        parts.append("\n".join([say(SINCE), *(f"  {line}" for line in since)]) if since else say(NOTHING_SINCE))
    if "legal_moves" in payload:
        parts.append(say(HOW) % {key: payload[key] for key in ("link", "legal_moves", "moves", "docs")})
    else:
        parts.append(say(WATCH) % {"link": payload["link"]})
    seat = payload.get("seat_name")
    values = {"summary": summary, "game": title_of(payload["game"], locale), "game_id": payload["game_id"],
              "version": number(payload["version"]), "seat": seat if seat is not None else payload["seat"],
              "body": "\n\n".join(parts)}
    return say(SUBJECT) % values, say(BODY) % values


def _summary(payload: dict[str, Any], locale: str) -> str:
    terms = dict(payload.get("terms") or {})
    sentence = NOTICES.get((payload["event"], "due" in terms)) or NOTICES.get((payload["event"], False)) or ""
    if not sentence:  # a notice newer than this wording: its English summary
        return str(payload["summary"])
    say = translations(locale).ugettext
    terms["game"] = title_of(payload["game"], locale)
    terms.setdefault("players", ", ".join(payload.get("players") or ()))
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
