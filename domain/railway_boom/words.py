"""What Railway Boom is called and how its rules' refusals read: its title (translated by
the service's catalogues, context `game`) and one English sentence per refusal code its
rules raise beyond the core's (`Decider.title`, `Decider.refusals`)."""

from __future__ import annotations

from domain.core.words import N_, pgettext_noop

TITLE = pgettext_noop("game", "Railway Boom")
"""The game's name in English."""

REFUSALS: dict[str, str] = {
    "wrong_step": N_("That move is not possible at this step of the turn."),
    "turn_not_done": N_("First do this turn's required part."),
    "unknown_city": N_("There is no such city on the map."),
    "tiles_not_held": N_("You do not hold those tiles."),
    "unknown_hex": N_("There is no such hex on the map."),
    "unknown_tile": N_("There is no such tile."),
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
}
"""Code -> its sentence; a code another game raises too has the same sentence there."""
