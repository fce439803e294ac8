"""What the Bot API does, apart from HTTP: the lines its streams carry and the actions a bot
takes.  Every move goes through ``games.play.services.play``, the service people's moves use, and
every refusal is worded as a person's page words it.

A bot's line about a game carries exactly what its seat may see: the engine's own
``player_view`` for the bot's seat (its rack, the public table, the other racks' sizes), the
seats' public names and the game's public fields.  Never the state, the wall, a seed or the
action log (a log row may name a tile only its mover knows)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bot_api.models import BotPolicy, Invitation
from games import presenters
from games.engine import IllegalAction, InvalidAction
from games.models import Game, Seat, Table
from games.play import news, services
from games.play.moves import MOVED_ON
from games.tables import lifecycle


@dataclass(frozen=True)
class Refusal(Exception):
    """An action the API refuses: the HTTP status, a code a program can test, the sentence a
    person reads, and anything else the answer carries (the current version)."""

    status: int
    code: str
    message: str
    extra: dict[str, Any] | None = None

    def answer(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **(self.extra or {})}


def seat_of(game: Game, user) -> Seat | None:
    return Seat.objects.filter(table_id=game.table_id, user=user).first()


def game_line(game: Game, seat: Seat) -> dict[str, Any]:
    """The game stream's line for ``seat`` at the game's current version."""
    engine = services.game_of(game.table)
    state = engine.load(game.state)
    seats = Seat.objects.of_table(game.table_id)
    return {
        "type": "gameState",
        "game": game.pk,
        "table": game.table_id,
        "game_type": game.table.game_type,
        "version": game.version,
        "status": game.status,
        "seat": seat.position,
        "to_act": list(game.to_act),
        "my_turn": seat.position in game.to_act,
        "players": [
            {"seat": s.position, "name": s.display_name, "bot": s.is_bot or _is_bot_user(s)}
            for s in seats
        ],
        # The bot's own clock for the turn it owes (None: no clock, or not its turn).
        "deadline": ((game.seat_clocks or {}).get(str(seat.position)) or {}).get("deadline"),
        "scores": game.scores if game.status == Game.Status.FINISHED else None,
        "view": engine.player_view(state, seat.position),
    }


def _is_bot_user(seat: Seat) -> bool:
    return seat.user is not None and seat.user.is_bot


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def events_for(user) -> list[dict[str, Any]]:
    """What the event stream reports now: pending invitations and the bot's games being
    played (the stream sends each once, as it appears)."""
    events: list[dict[str, Any]] = []
    for invite in Invitation.objects.filter(
        bot=user, status=Invitation.Status.PENDING
    ).select_related("table", "invited_by"):
        table = invite.table
        events.append(
            {
                "type": "invitation",
                "id": invite.pk,
                "table": table.pk,
                "game_type": table.game_type,
                "preset": table.preset,
                "seats": table.seat_count,
                "rated": table.rated,
                "move_seconds": table.move_seconds,
                "from": invite.invited_by.public_name,
            }
        )
    playing = (
        Game.objects.filter(
            table__seats__user=user,
            status=Game.Status.PLAYING,
            table__status=Table.Status.PLAYING,
        )
        .select_related("table")
        .order_by("pk")
    )
    for game in playing:
        events.append(
            {
                "type": "gameStart",
                "game": game.pk,
                "table": game.table_id,
                "game_type": game.table.game_type,
            }
        )
    return events


def event_key(event: dict[str, Any]) -> str:
    return f"{event['type']}:{event.get('id', event.get('game'))}"


def play_move(user, game_id: int, move: Any, version: Any) -> dict[str, Any]:
    """Play ``move`` (the game's notation) for the user's seat, answering ``version``."""
    if not isinstance(move, str) or not move.strip() or len(move) > 4000:
        raise Refusal(400, "bad-request", _("Send the move in the game's notation as text."))
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise Refusal(400, "bad-request", _("Send the version the move answers, a number."))
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    seat = seat_of(game, user) if game is not None else None
    if game is None or seat is None:
        raise Refusal(404, "no-game", _("You have no seat in this game."))
    try:
        played = services.play(game_id, seat.position, move.strip(), version)
    except services.GameMovedOn as moved:
        raise Refusal(409, "moved-on", str(MOVED_ON), {"version": moved.current_version}) from moved
    except services.SeatHandedOver as handed:
        raise Refusal(409, "handed-over", str(handed)) from handed
    except (IllegalAction, InvalidAction) as refusal:
        presentation = presenters.presenter_for(game.table.game_type)
        raise Refusal(
            422, "refused", presentation.refusal_text(refusal, game), {"version": version}
        ) from refusal
    return {"ok": True, "version": played.game.version}


def _may_sit(user, table: Table) -> None:
    if table.rated:
        policy = BotPolicy.objects.filter(table=table).first()
        if policy is None or not policy.rated_with_bots:
            raise Refusal(
                403, "rated", _("This rated table is for people: bot accounts may not sit here.")
            )


def join_open_table(user, table_id: int) -> dict[str, Any]:
    table = Table.objects.filter(pk=table_id, is_public=True).first()
    if table is None:
        raise Refusal(404, "no-table", _("There is no such open table."))
    _may_sit(user, table)
    try:
        seat = lifecycle.join_table(table, user)
    except lifecycle.TableError as error:
        raise Refusal(409, "table", str(error)) from error
    return {"ok": True, "table": table.pk, "seat": seat.position}


def answer_invitation(user, invite_id: int, *, accept: bool) -> dict[str, Any]:
    with transaction.atomic():
        invite = (
            Invitation.objects.select_for_update()
            .select_related("table")
            .filter(pk=invite_id, bot=user)
            .first()
        )
        if invite is None:
            raise Refusal(404, "no-invitation", _("There is no such invitation."))
        if invite.status != Invitation.Status.PENDING:
            raise Refusal(409, "answered", _("This invitation was answered already."))
        answer: dict[str, Any] = {"ok": True, "table": invite.table_id}
        if accept:
            _may_sit(user, invite.table)
            try:
                seat = lifecycle.join_table(invite.table, user)
            except lifecycle.TableError as error:
                raise Refusal(409, "table", str(error)) from error
            answer["seat"] = seat.position
        invite.status = Invitation.Status.ACCEPTED if accept else Invitation.Status.DECLINED
        invite.answered_at = timezone.now()
        invite.save(update_fields=["status", "answered_at"])
    return answer


def invite(table: Table, by, bot) -> Invitation:
    """The table's owner invites the bot account ``bot`` to the open table."""
    if table.owner_id != by.pk:
        raise Refusal(403, "not-owner", _("Only the table's owner can invite a bot."))
    if not bot.is_bot:
        raise Refusal(400, "not-a-bot", _("%(name)s is not a bot account.") % {"name": bot})
    if table.status != Table.Status.OPEN:
        raise Refusal(409, "table", _("This table has already started."))
    invitation, _made = Invitation.objects.get_or_create(
        table=table, bot=bot, status=Invitation.Status.PENDING, defaults={"invited_by": by}
    )
    group = bot_group(bot.pk)
    transaction.on_commit(lambda: news.publish(group, {"type": "bot.event"}))
    return invitation


def bot_group(user_id: int) -> str:
    return f"bot-{user_id}"
