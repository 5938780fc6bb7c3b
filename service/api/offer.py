"""The games this server plays: `GET /api/v1/rulesets`, what a client needs to offer a new
game (seat counts, the options and their defaults, the installed content packs, the move
types), so a lobby or a bot knows them without a list of its own."""

from __future__ import annotations

from typing import Any

from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from domain import games as registry
from domain.core import takeover
from domain.core.decider import Decider, Unbound
from service.api.guard import Caller, guarded
from service.content import SHELF

rulesets = Blueprint("rulesets", __name__, url_prefix="/api/v1/rulesets",
                     description="The games this server plays, with their options and content packs.")


OPTION_TYPE = {"description": "An option's JSON Schema: `type`, `default`, `nullable` (null allowed, e.g. \"no "
               "limit\"), `enum` or `minimum`/`maximum`, `description`; `readOnly` when a game records it but cannot "
               "choose it (a printed number, a ruling written out): send it only with its default, or not at all."}


class InstalledPackSchema(Schema):
    id = fields.String(required=True, metadata={"description": "Name it as the option `content` (or the game's own option)."})
    version = fields.String(required=True)
    title = fields.String(required=True)
    option_types = fields.Dict(keys=fields.String(), values=fields.Dict(metadata=OPTION_TYPE), required=True, metadata={
        "description": "The options whose choices differ on this pack (a pack's maps, where it has several), as `option_types`."})


class RulesetSchema(Schema):
    game = fields.String(required=True, metadata={"description": "The name POST /api/v1/games takes as `game`."})
    ruleset_version = fields.String(required=True)
    min_seats = fields.Integer(required=True)
    max_seats = fields.Integer(required=True)
    options = fields.Dict(required=True, metadata={"description": "Every option with its default (for the fewest seats)."})
    option_types = fields.Dict(keys=fields.String(), values=fields.Dict(metadata=OPTION_TYPE), required=True, metadata={
        "description": "Every option's type and allowed values (for the fewest seats, on the default pack), so a client "
                       "offers each choice in its own type and sends it typed: null, numbers and booleans as JSON."})
    pack_option = fields.String(allow_none=True, metadata={"description": "The option that names the content pack."})
    default_pack = fields.String(allow_none=True)
    packs = fields.List(fields.Nested(InstalledPackSchema), required=True)
    move_types = fields.List(fields.String(), required=True)
    bot_levels = fields.List(fields.String(), required=True, metadata={
        "description": "The levels of bot that may play a seat (`bots` at creation, …/seats/{seat}/bot), weakest first."})


class RulesetsSchema(Schema):
    rulesets = fields.List(fields.Nested(RulesetSchema), required=True)


@rulesets.get("")
@guarded(Caller.PUBLIC, limit="read")
@rulesets.response(200, RulesetsSchema)
def list_rulesets() -> ResponseReturnValue:
    """List the games a new game may be of, with their seat counts, options and packs."""
    return {"rulesets": [described(registry.current(name)) for name in sorted(registry.names())]}


def described(decider: Decider[Any]) -> dict[str, Any]:
    unbound = registry.current_rules(decider.name)
    reads_packs = isinstance(unbound, Unbound)
    types = decider.option_schemas(decider.min_seats)
    packs: dict[str, Any] = {}
    for pack in SHELF.packs(decider.name) if isinstance(unbound, Unbound) else ():
        if pack.id in packs or not isinstance(unbound, Unbound):
            continue
        own = registry.bind(unbound, pack).option_schemas(decider.min_seats)
        differing = {name: schema for name, schema in own.items() if name != decider.pack_option and schema != types.get(name)}
        packs[pack.id] = {"id": pack.id, "version": pack.manifest.version, "title": pack.manifest.title,
                          "option_types": differing}
    return {"game": decider.name, "ruleset_version": decider.ruleset_version, "min_seats": decider.min_seats,
            "max_seats": decider.max_seats, "options": decider.options({}, decider.min_seats), "option_types": types,
            "pack_option": decider.pack_option if reads_packs else None,
            "default_pack": decider.default_pack if reads_packs else None,
            "packs": list(packs.values()), "move_types": list(decider.move_schemas), "bot_levels": takeover.levels(decider)}
