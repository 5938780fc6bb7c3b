"""The rules' refusals in words: one sentence per stable code, in every shipped language.

The rules (domain/) raise `IllegalMove`, `MalformedMove` and `RecordError` with a code, an
English message full of the case's particulars, and sometimes `params`. English readers
get that message as it is. Readers of another language get the code's sentence from the
catalogue, its `%(name)s` filled from the error's `params` where the rule gave them; a
code without a sentence (a newer rule) falls back to the English message. The codes
themselves never change (`tests/i18n/` checks that every code in domain/ has a sentence
here and in each catalogue)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import games


def N_(message: str) -> str:
    """Marks a message for the catalogues; it is translated where it is shown."""
    return message


RULE_SENTENCES: dict[str, str] = {
    # Any game: turns, shapes of moves, seats and the referee's tools (a game declares its own codes, `Decider.refusals`).
    "not_your_turn": N_("It is not %(name)s's turn to act; to move: %(to_move)s."),
    "game_over": N_("The game has ended; no more moves can be made."),
    "not_an_object": N_("A move must be a JSON object with a \"type\" field."),
    "unknown_move_type": N_("This game has no move of that type."),
    "missing_field": N_("The move lacks a field it needs."),
    "unexpected_field": N_("The move has a field this kind of move does not take."),
    "bad_field": N_("A field of the move has a value the rules do not accept."),
    "bad_options": N_("These options are not valid for this game."),
    "bad_seats": N_("This game cannot be played by that many players."),
    "bad_seat": N_("There is no such seat in this game."),
    "bad_choice": N_("That is not one of the answers allowed here."),
    "bad_deadline": N_("A move deadline must be a whole number of seconds within the allowed range, or none."),
    "bad_referee": N_("A referee's name must be 1 to 64 letters, digits, spaces or ._@-, starting with a letter or digit."),
    "bad_rewind": N_("A rewind must go back to an earlier event that ends a command, after the opening."),
    "bad_fork": N_("A fork must start at an event of the original game that ends a command, after the opening."),
    "bad_version": N_("There is no event with that number in this game."),
    "unknown_game": N_("This server plays no game of that name."),
    "unknown_ruleset": N_("That version of the rules is not installed on this server."),
    "unknown_bot": N_("This game has no bot of that level."),
    "unknown_content": N_("No content pack of that name is installed for this game."),
    "content_missing": N_("The content pack %(pack)s this game needs is not installed here."),
    "content_mismatch": N_("The installed content pack %(pack)s differs from the one this game was recorded with."),
    "content_unplayable": N_("This content pack holds a map this game cannot be played on."),
    "bad_content": N_("The game's record names its content pack in a form that is not valid."),
    "referee_only": N_("Only a referee may do this."),
    "adjustment_unsupported": N_("This game does not take that kind of adjustment; rewind instead."),
    "not_claimed": N_("That piece is not that seat's, so it cannot be put back."),
    "seat_held_by_bot": N_("A bot holds that seat already; hand it back first."),
    "seat_not_held_by_bot": N_("No bot holds that seat; there is nothing to hand back."),
    "seat_taken": N_("That seat has been joined already."),
    "not_your_seat": N_("Only that seat may join as that seat."),
    "no_deadline": N_("This game has no move deadline."),
    "deadline_unchanged": N_("That deadline is the game's already; nothing would change."),
    "deadline_passed": N_("The deadline has passed already; the bot's move comes next."),
    "deadline_is_automatic": N_("Only the service records a deadline passing."),
    "not_to_act": N_("That seat is not to act, so it cannot be late."),
    "seed_revealed": N_("The seed has been revealed, so new draws would be predictable; this cannot be done past that point."),
    "no_such_dispute": N_("There is no open dispute raised at that event."),
    "dispute_ruled": N_("That dispute has been ruled on already."),
    "dispute_not_upheld": N_("That dispute was not upheld, so nothing can be settled by it."),
    "already_answered": N_("That seat has already answered this takeback."),
    "no_pending_takeback": N_("No takeback is waiting for an answer."),
    "own_takeback": N_("The seat that asked cannot answer its own takeback."),
    "not_your_takeback": N_("Only a seat may ask to take back its own move."),
    "takeback_after_draw": N_("That move drew or revealed something; only a referee may rewind it."),
    "takeback_not_last_move": N_("Only your own last move can be taken back, and only before anyone else has moved."),
    "takeback_pending": N_("A takeback is already waiting for an answer."),
    "rewind_needs_history": N_("This event restores an earlier state; the record must be read with its history."),
    # A game played at a table: moves in each game's notation, outcomes entered by hand.
    "bad_notation": N_("That line cannot be read in this game's notation."),
    "bad_outcome": N_("That outcome cannot be read: give it in the game's own terms, as many as the rules ask for."),
    "bad_setup": N_("The opening as observed at the table is not in this game's form, or breaks the rules of setup."),
    "bad_seed": N_("A game played at a table has no seed: its outcomes are entered by hand."),
    "impossible_outcome": N_("That outcome is not possible now: the pile, the bag or the dice could not have given it."),
    "outcome_awaited": N_("The game waits for a random outcome to be entered first."),
    "no_outcome_awaited": N_("The game waits for no outcome now; it waits for a move."),
    "too_many_outcomes": N_("More outcomes were entered than the rules asked for."),
    "not_your_outcome": N_("A seat enters only its own secret draws; the referee enters every other outcome."),
    "not_a_table_game": N_("This game draws its own random outcomes: none can be entered."),
    "no_observed_opening": N_("A game played at a table keeps its opening as observed right after its creation; this record does not."),
    "secret_withheld": N_("An entered outcome is secret to its seat; deciding the move needs the full record."),
    # A record that does not verify.
    "chain_broken": N_("An event does not link to the event before it."),
    "hash_mismatch": N_("An event was altered: its hash does not match."),
    "secret_mismatch": N_("A secret of an event does not match its digest."),
    "game_mismatch": N_("An event belongs to another game."),
    "version_gap": N_("The events are not numbered one after another."),
    "record_malformed": N_("An event of the record lacks a part it must have."),
    "no_game_created": N_("A game record must start with the game's creation."),
    "not_a_move": N_("A seat's command cannot start with that event."),
    "no_seat_for_move": N_("No seat that was to act could have made this move."),
    "unexpected_event": N_("An event in the record was not caused by any command."),
    "bad_event_data": N_("An event's data does not fit its kind."),
    "unknown_kind": N_("The record holds an event of a kind this game does not have."),
    "random_mismatch": N_("A recorded shuffle or draw does not fit what was shuffled or drawn."),
    "random_missing": N_("The rules asked for a draw the record does not hold."),
    "secrets_withheld": N_("This record withholds secrets (an export for the public or a seat): "
                           "import the referee's full record, which holds every secret."),
    # Tournaments.
    "bad_name": N_("A tournament's name is 1 to 100 characters."),
    "bad_format": N_("The format is heats, swiss or schedule."),
    "bad_rounds": N_("A tournament has 1 to 50 rounds."),
    "bad_table_size": N_("%(game)s is played at tables of %(least)s to %(most)s players, not %(size)s."),
    "bad_semifinal": N_("That many semifinalists cannot fill tables whose winners all reach the final."),
    "bad_seeding": N_("The first round is seeded by the draw or by rating."),
    "bad_seed_source": N_("Tables draw from seeds derived from the tournament's secret, or play with physical components."),
    "bad_place_points": N_("Points per place are numbers of 0 or more, first place first."),
    "bad_tie_breaks": N_("Name each tie-break once, from the ones this service knows."),
    "bad_player": N_("A player's name is 1 to 64 characters."),
    "already_registered": N_("%(player)s is registered already."),
    "registration_closed": N_("Registration is closed: the rounds a player may still enter are paired, or the tournament has finished."),
    "not_registered": N_("Not a player still in this tournament."),
    "already_withdrawn": N_("%(player)s has withdrawn already."),
    "bad_withdrawal": N_("A withdrawn player's running games are forfeited or kept by a bot."),
    "finished": N_("The tournament has finished."),
    "tables_playing": N_("Tables of the round before are still playing: pair the next round once their results are in."),
    "all_paired": N_("Every round of this tournament is paired already."),
    "entrants_heats_only": N_("Players choose which rounds to enter only in heats."),
    "too_few_players": N_("Too few players for one table: %(players)s entered, a table needs at least %(least)s."),
    "not_in_tournament": N_("That game is not a table of this tournament."),
    "result_recorded": N_("That table's result is in already."),
    "bad_places": N_("Places are one per seat, each one more than the number of seats ahead of it (e.g. 1, 2, 2, 4)."),
    "bad_reason": N_("A ruling gives its reason."),
    "not_complete": N_("The tournament is not over: rounds are left to pair or tables to finish."),
}

PROBLEM_TITLES: tuple[str, ...] = (
    N_("Malformed move"), N_("Illegal move"), N_("Invalid game settings"), N_("Refused by the rules"), N_("Invalid join"),
    N_("Malformed request"), N_("Record does not verify"), N_("Game not found"), N_("Invite not valid"),
    N_("Version conflict"), N_("Idempotency key reused"), N_("Store inconsistent"), N_("No such version"),
    N_("No such seat"), N_("Bad request"), N_("Webhook target refused"), N_("Unsupported media type"),
    N_("Service unavailable"), N_("Database unavailable"), N_("Internal Server Error"), N_("Too many requests"),
    N_("Not Found"), N_("Method Not Allowed"), N_("Unauthorized"), N_("Forbidden"), N_("Bad Request"),
    N_("Request Entity Too Large"), N_("Precondition Failed"), N_("Conflict"), N_("Too Many Requests"),
    N_("Not your outcome"), N_("Not shown yet"),
)
"""Every title a problem document may carry, so each has its translation."""

SERVICE_SENTENCES: dict[str, str] = {
    "game_not_found": N_("There is no game with that id on this server."),
    "version_conflict": N_("The game moved on before this request arrived; read it again and retry."),
    "idempotency_key_reused": N_("That Idempotency-Key was used for another request."),
    "bad_request": N_("The request is not valid."),
    "malformed_request": N_("The request is not valid: see `errors`."),
    "invite_invalid": N_("That invite is not valid for this game, or has been used."),
    "unsupported_media_type": N_("The body must be JSON, sent as Content-Type: application/json."),
    "database_unavailable": N_("The database did not answer in time; nothing more was stored by this request. Try again shortly."),
    "idempotency_key_reserved": N_("That Idempotency-Key begins with a prefix the server keeps for its own commands "
                                   "(bot:, create:, fork:, referee:, system:); use any other key."),
    "token_shown_once": N_("That hand-back was answered already and the seat has changed hands since: its token was shown "
                           "once and cannot be given again."),
    "body_too_large": N_("The body is larger than this server takes."),
    "seed_not_held": N_("This game was imported unfinished, without its seed: it cannot be played on here, by a seat, a "
                        "bot or a fork. Play it on where its seed is kept, then import the finished record."),
    "withheld": N_("This game continues the hidden cards of a game that is still running: until that game ends, it is "
                   "shown only with its own seats' or referee's tokens."),
}
"""The service's own refusals with a stable code: their sentences for other languages."""


def games_sentence(code: str) -> str | None:
    """The sentence a registered game declares for `code` (`Decider.refusals`); games that
    raise the same code word it alike (`tests/i18n/` checks)."""
    for name in games.names():
        found = games.current(name).refusals.get(code)
        if found is not None:
            return found
    return None


def sentence(code: str, english: str, params: Mapping[str, Any], gettext: Any) -> str:
    """The refusal `code` in the language `gettext` translates into, its parameters filled
    in; `english` (the rule's own message) where the code has no sentence, or a parameter
    the sentence names is missing."""
    template = RULE_SENTENCES.get(code) or SERVICE_SENTENCES.get(code) or games_sentence(code)
    if template is None:
        return english
    translated = gettext(template)
    if translated == template:  # untranslated: the rule's own English says more
        return english
    try:
        return translated % dict(params) if "%(" in translated else translated
    except (KeyError, TypeError, ValueError):
        return english
