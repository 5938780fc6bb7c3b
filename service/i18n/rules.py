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


def N_(message: str) -> str:
    """Marks a message for the catalogues; it is translated where it is shown."""
    return message


RULE_SENTENCES: dict[str, str] = {
    # Any game: turns, shapes of moves, seats and the referee's tools.
    "not_your_turn": N_("It is not seat %(seat)s's turn to act."),
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
    "content_missing": N_("The content pack this game needs is not installed."),
    "content_mismatch": N_("The installed content pack differs from the one this game was recorded with."),
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
    # Turns and phases.
    "not_now": N_("That move is not allowed at this point of the turn."),
    "wrong_phase": N_("That move belongs to another phase of the game."),
    "wrong_step": N_("That move is not possible at this step of the turn."),
    "pass_not_allowed": N_("You may pass only when no other move is possible."),
    "must_act": N_("An action is possible, so you may not pass."),
    "turn_not_done": N_("First do this turn's required part."),
    # Ticket to Ride.
    "no_tickets_offered": N_("You have no tickets to choose from; draw tickets first."),
    "ticket_not_offered": N_("That ticket is not one of the tickets you were offered."),
    "ticket_listed_twice": N_("Each ticket may be listed only once."),
    "tickets_keep_too_few": N_("You must keep more of the tickets you were offered."),
    "must_keep_tickets": N_("First choose which of your offered tickets to keep."),
    "ticket_deck_empty": N_("The ticket deck is empty; there are no tickets left to draw."),
    "deck_empty": N_("The deck and the discard pile are both empty; take a face-up card instead."),
    "market_slot_empty": N_("That market slot is empty."),
    "locomotive_second_card": N_("A face-up locomotive may only be taken as your first card, where it is the whole draw."),
    "must_finish_draw": N_("You have drawn one train card this turn; draw your second card to finish it."),
    "route_taken": N_("That route is already claimed."),
    "double_route_closed": N_("That route is closed: the other route between these cities is claimed, and with 2 or 3 players"
                              " only one of the two may be used."),
    "double_route_same_seat": N_("One player may not claim both routes between the same two cities."),
    "not_enough_trains": N_("You do not have enough trains left for that route."),
    "wrong_card_count": N_("That route takes a different number of cards."),
    "wrong_colour": N_("Those are not the colour this needs."),
    "mixed_colours": N_("Pay with cards of one colour plus locomotives."),
    "not_enough_cards": N_("You do not hold that many cards of that kind."),
    "unknown_route": N_("There is no such route on the map."),
    "unknown_ticket": N_("There is no such ticket."),
    "unknown_colour": N_("There is no such colour."),
    "unknown_city": N_("There is no such city on the map."),
    "no_such_route": N_("No route joins those cities on this map."),
    "not_face_up": N_("That card does not lie face up in the market."),
    # Age of Steam.
    "bid_too_low": N_("A bid must beat the high bid by at least $1."),
    "bid_over_cash": N_("You cannot bid more cash than you have."),
    "no_turn_order_pass": N_("Only last turn's Turn Order holder may pass, once per auction, without dropping out."),
    "pass_with_two_bidders": N_("The Turn Order pass may not be used when only two bidders remain."),
    "share_limit": N_("No more shares may be issued in this game."),
    "shares_never_bought_back": N_("Shares are never bought back; issue 0 or more."),
    "action_taken": N_("Another player has already taken that action this turn."),
    "unknown_action": N_("There is no such action."),
    "lake_hex": N_("No track may be built on a lake."),
    "city_hex": N_("No track tile is placed on a city hex."),
    "town_tile_needs_town": N_("A town tile can only be placed on a town."),
    "must_preserve_track": N_("A new tile must keep the track already there."),
    "nothing_changed": N_("The tile changes nothing there."),
    "out_of_stock": N_("No tile of that kind is left in stock."),
    "no_town_disc": N_("All town discs are in use."),
    "not_enough_cash": N_("You do not have enough cash for this."),
    "cost_mismatch": N_("The cost given does not match what this placement costs."),
    "upgrade_and_redirect": N_("One placement either adds track or redirects it, not both."),
    "loop": N_("Track may not loop back to where it started."),
    "into_others_track": N_("Track may not run into another player's track."),
    "into_lake": N_("Track may not run into a lake."),
    "off_board": N_("Track may not run off the board."),
    "redirect_others_track": N_("Another player's track is always kept; you may redirect only your own or unowned track."),
    "no_ownership_markers": N_("You have no ownership marker left."),
    "not_connected": N_("New track must connect to a city through your own track."),
    "build_limit": N_("You have placed all the tiles you may this turn; end your build."),
    "hex_built_this_turn": N_("You already built on that hex this turn."),
    "already_urbanized": N_("You have already placed your new city this turn."),
    "already_a_city": N_("That place is already a city."),
    "not_a_town": N_("A new city is placed on a town; that place is not one."),
    "new_city_used": N_("That new city is already on the map."),
    "no_urbanization": N_("Only the Urbanization holder may place a new city."),
    "urbanize_before_building": N_("Urbanization happens before building; you have already placed track."),
    "not_a_city": N_("Goods are moved from cities; that place is not a city."),
    "no_such_good": N_("There is no good of that colour there."),
    "empty_path": N_("A delivery must travel at least one link."),
    "beyond_locomotive": N_("Your locomotive cannot pull a good over that many links."),
    "incomplete_link": N_("Goods move on completed links only."),
    "path_not_connected": N_("The path is not connected: a link does not leave the place the good has reached."),
    "must_stop_at_colour": N_("A good must stop at the first city of its own colour it enters."),
    "stop_visited_twice": N_("A good may pass through each city only once."),
    "wrong_destination": N_("A good must end at a city of its own colour."),
    "locomotive_max": N_("Your locomotive is already at its maximum."),
    "locomotive_once_per_turn": N_("You may raise your locomotive instead of moving a good only once a turn."),
    "space_taken": N_("That space of the goods display already holds a good."),
    "tiles_not_held": N_("You do not hold those tiles."),
    "unknown_link": N_("There is no such link on the board."),
    "unknown_hex": N_("There is no such hex on the map."),
    "unknown_tile": N_("There is no such tile."),
    "unknown_new_city": N_("There is no such new city."),
    "unknown_column": N_("There is no such column on the goods display."),
    "unknown_good": N_("There is no such good."),
    # Railway Boom.
    "cannot_convert": N_("There is nothing to convert here."),
    "not_enough_resources": N_("Your resources together are not enough for that bid."),
    "not_enough_money": N_("You do not hold enough money for this."),
    "not_enough_materials": N_("You do not hold enough materials for this."),
    "not_enough_technology": N_("You do not hold enough technology for this."),
    "not_enough_coal": N_("You do not have enough coal for this."),
    "wrong_amount": N_("This mix does not add up to what the \"?\" bid costs."),
    "space_not_free": N_("That space is not an empty space above your disc."),
    "income_choice": N_("Name the income track to raise exactly when your rail reaches a city that lets you."),
    "locomotive_first": N_("Take your locomotive before buying cars."),
    "locomotive_taken": N_("You have taken your locomotive this turn."),
    "two_cars": N_("You may buy at most 2 cars a turn."),
    "station_built": N_("You have built your station this turn."),
    "station_first": N_("Build your station first."),
    "no_station_left": N_("You have no station left on your board."),
    "rail_not_allowed": N_("A rail cannot go there: it must be land without a piece of yours, next to this turn's station or rails."),
    "city_not_marked": N_("That city is not a marked city nobody has picked."),
    "row_chosen": N_("You have chosen your row this turn."),
    "row_not_free": N_("That row has been chosen already."),
    "card_not_in_row": N_("That card is not left in your row."),
    "card_not_offered": N_("That card is not among the revealed cards."),
    "card_not_usable": N_("That is not an unused extra-power card of yours."),
    "card_runs_twice": N_("Each card runs once a round: a card is listed twice."),
    "free_run_not_a_car": N_("A free run names a car of one of your trains, once."),
    "no_free_run": N_("You have no unused free-car-run card for every car named free."),
    "no_free_slot": N_("That card has no free slot for a tile."),
    "train_needs_locomotive": N_("Each train starts with a locomotive."),
    "locomotives_never_coupled": N_("Only cars follow a locomotive; locomotives are never coupled."),
    "not_your_train": N_("That train card is not yours."),
    "unknown_card": N_("There is no such card."),
    "unknown_track": N_("There is no such track."),
    "unknown_resource": N_("There is no such resource."),
    # Toot-Toot Train.
    "choose_start_first": N_("Every seat first chooses a start position."),
    "not_a_start": N_("That is not one of the map's start positions."),
    "start_taken": N_("That start position is taken."),
    "off_map": N_("That hex is not on the map."),
    "bad_segment": N_("A segment is straight or a gentle curve; those edges cannot be joined."),
    "track_exists": N_("That hex already has that segment."),
    "no_track_here": N_("No track can be drawn there."),
    "line_broken": N_("The line must go on from the end of the last segment drawn."),
    "missing_goods": N_("You do not hold the goods this needs."),
    "no_shovel": N_("You do not hold your shovel."),
    "no_penalty_tokens": N_("All penalty tokens are out, so you cannot do this."),
    "bad_factory_site": N_("A factory cannot go on that hex."),
    "bad_factory_exit": N_("A factory's exit must face a plain hex on the map without a building."),
    "splits_map": N_("A factory there would split the map."),
    "cannot_turn": N_("The train cannot turn that way there."),
    "unreachable": N_("Your train cannot reach that hex facing that way."),
    "not_at_location": N_("Your train is not next to that place."),
    "same_kind": N_("The second location action must be of another kind than the first."),
    "storage_full": N_("You hold as many goods as you may; there is nothing to take."),
    "supply_empty": N_("None of that good is left in the supply."),
    "nothing_sold": N_("A sale sells at least 1 good."),
    "not_wanted": N_("That order does not want that many of that good."),
    "wrong_recipe": N_("That recipe is not one of your card's recipes for this factory."),
    "cannot_upgrade": N_("That ability is full, or its column needs more tokens in the columns before it."),
    "no_tokens": N_("You have no technology token to place."),
    "unknown_ability": N_("Your card has no such ability."),
    "unknown_building": N_("There is no such place on the map."),
    "unknown_order": N_("That is neither a public order nor one of your secret orders."),
    "unknown_factory": N_("There is no such factory."),
    "unknown_recipe": N_("There is no such recipe."),
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
    "seed_not_held": N_("This game was imported unfinished, without its seed: it cannot be played on here, by a seat, a "
                        "bot or a fork. Play it on where its seed is kept, then import the finished record."),
    "withheld": N_("This game continues the hidden cards of a game that is still running: until that game ends, it is "
                   "shown only with its own seats' or referee's tokens."),
}
"""The service's own refusals with a stable code: their sentences for other languages."""


def sentence(code: str, english: str, params: Mapping[str, Any], gettext: Any) -> str:
    """The refusal `code` in the language `gettext` translates into, its parameters filled
    in; `english` (the rule's own message) where the code has no sentence, or a parameter
    the sentence names is missing."""
    template = RULE_SENTENCES.get(code) or SERVICE_SENTENCES.get(code)
    if template is None:
        return english
    translated = gettext(template)
    if translated == template:  # untranslated: the rule's own English says more
        return english
    try:
        return translated % dict(params) if "%(" in translated else translated
    except (KeyError, TypeError, ValueError):
        return english
