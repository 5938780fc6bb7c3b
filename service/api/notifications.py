"""A seat's notifications: where it is told (webhook, email), and how the deliveries went."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint

from domain.core.events import Audience
from service import i18n
from service.api import schemas as s
from service.api.guard import Caller, guarded
from service.api.problems import documents_problems
from service.notify.notifier import Notifier

notifications = Blueprint("notifications", __name__, url_prefix="/api/v1/games",
                          description="Notifications: tell a seat when it is its turn.")


def notifier() -> Notifier:
    return current_app.extensions["caboose.notifier"]


@notifications.get("/<game_id>/notifications")
@guarded(Caller.SEAT, limit="read")
@notifications.response(200, s.NotificationsSchema)
@documents_problems(401, 404, 429)
def get_notifications(game_id: str, audience: Audience) -> ResponseReturnValue:
    """Show where this seat is told, and its latest deliveries with attempts and errors."""
    return notifier().status(game_id, seat_of(audience))


@notifications.put("/<game_id>/notifications")
@guarded(Caller.SEAT, limit="move")
@notifications.arguments(s.SubscribeSchema())
@notifications.response(200, s.NotificationsSchema)
@documents_problems(400, 401, 404, 413, 429)
def put_notifications(args: dict[str, Any], game_id: str, audience: Audience) -> ResponseReturnValue:
    """Set this seat's webhook URL and/or email; a new webhook secret is returned once."""
    seat = seat_of(audience)
    # Mails are written in the language the seat subscribed in.
    subscribed = notifier().subscribe(game_id, seat, args["webhook_url"], args["email"], language=i18n.current().locale)
    return {**notifier().status(game_id, seat), **subscribed}


def seat_of(audience: Audience) -> int:
    """The caller's seat: `Caller.SEAT` routes admit only a seat's token."""
    if audience.seat is None:
        raise AssertionError("a seat's route was reached without a seat's token")
    return audience.seat
