"""What Age of Steam is called and how its rules' refusals read: its title (translated by
the service's catalogues, context `game`) and one English sentence per refusal code its
rules raise beyond the core's (`Decider.title`, `Decider.refusals`)."""

from __future__ import annotations

from domain.core.words import N_, pgettext_noop

TITLE = pgettext_noop("game", "Age of Steam")
"""The game's name in English."""

REFUSALS: dict[str, str] = {
    "wrong_phase": N_("That move belongs to another phase of the game."),
    "unknown_colour": N_("There is no such colour."),
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
    "unknown_link": N_("There is no such link on the board."),
    "unknown_hex": N_("There is no such hex on the map."),
    "unknown_tile": N_("There is no such tile."),
    "unknown_new_city": N_("There is no such new city."),
    "unknown_column": N_("There is no such column on the goods display."),
}
"""Code -> its sentence; a code another game raises too has the same sentence there."""
