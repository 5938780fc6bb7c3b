"""What Ticket to Ride is called and how its rules' refusals read: its title (translated by
the service's catalogues, context `game`) and one English sentence per refusal code its
rules raise beyond the core's (`Decider.title`, `Decider.refusals`)."""

from __future__ import annotations

from domain.core.words import N_, pgettext_noop

TITLE = pgettext_noop("game", "Ticket to Ride")
"""The game's name in English."""

REFUSALS: dict[str, str] = {
    "pass_not_allowed": N_("You may pass only when no other move is possible."),
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
    "no_such_route": N_("No route joins those cities on this map."),
    "not_face_up": N_("That card does not lie face up in the market."),
    "unknown_card": N_("There is no such card."),
}
"""Code -> its sentence; a code another game raises too has the same sentence there."""
