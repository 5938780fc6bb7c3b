"""What Toot-Toot Train is called and how its rules' refusals read: its title (translated by
the service's catalogues, context `game`) and one English sentence per refusal code its
rules raise beyond the core's (`Decider.title`, `Decider.refusals`)."""

from __future__ import annotations

from domain.core.words import N_, pgettext_noop

TITLE = pgettext_noop("game", "Toot-Toot Train")
"""The game's name in English."""

OWN_TITLE = "火車嘟嘟"
"""The name on the box, shown beside a translated title."""

REFUSALS: dict[str, str] = {
    "not_now": N_("That move is not allowed at this point of the turn."),
    "must_act": N_("An action is possible, so you may not pass."),
    "wrong_colour": N_("Those are not the colour this needs."),
    "unknown_good": N_("There is no such good."),
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
    "not_in_hand": N_("That order is not one of your hand orders; final scoring supplies only your own."),
    "nothing_supplied": N_("Name at least one good for each hand order you supply, or leave the order out."),
}
"""Code -> its sentence; a code another game raises too has the same sentence there."""
