"""The Bot API's HTTP endpoints (docs/bot-api.md).  Every request carries a token in
``Authorization: Bearer …``; every one counts against the token's rate limit.  Answers are
JSON (NDJSON for the streams); refusals are ``{"error": code, "message": sentence}`` with a
status that says what kind."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Concatenate

from channels.db import database_sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from bot_api import play, streams, tokens
from bot_api.models import BotToken

# A move is a line of notation; a tile rummy's whole table is a few hundred characters.
MAX_BODY = 8 * 1024


def _refused(status: int, code: str, message: str, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": code, "message": message, **extra}, status=status)


def _authenticate(request: HttpRequest) -> BotToken | JsonResponse:
    """The request's token, or the answer that refuses it (no token, a bad or revoked one,
    a spent rate limit)."""
    header = request.headers.get("Authorization", "")
    scheme, _sep, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        return _refused(401, "no-token", _("Send your bot token as Authorization: Bearer …"))
    token = tokens.token_for(key.strip())
    if token is None:
        return _refused(401, "bad-token", _("This token is unknown or has been revoked."))
    wait = tokens.over_limit(token)
    if wait:
        refusal = _refused(
            429, "rate-limited", _("Too many requests: wait %(seconds)d s.") % {"seconds": wait}
        )
        refusal["Retry-After"] = str(wait)
        return refusal
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        BotToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY:
        raise play.Refusal(413, "too-large", _("The request is too large."))
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise play.Refusal(400, "bad-request", _("Send a JSON object.")) from None
    if not isinstance(data, dict):
        raise play.Refusal(400, "bad-request", _("Send a JSON object."))
    return data


def _action(
    work: Callable[Concatenate[Any, HttpRequest, ...], dict[str, Any]],
) -> Callable[..., HttpResponse]:
    """A POST endpoint: authenticated, its refusals answered as JSON."""

    @csrf_exempt
    @require_POST
    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        token = _authenticate(request)
        if isinstance(token, JsonResponse):
            return token
        try:
            return JsonResponse(work(token.user, request, **kwargs))
        except play.Refusal as refusal:
            return JsonResponse(refusal.answer(), status=refusal.status)

    return view


@require_GET
def account(request: HttpRequest) -> HttpResponse:
    token = _authenticate(request)
    if isinstance(token, JsonResponse):
        return token
    user = token.user
    return JsonResponse(
        {
            "id": user.pk,
            "username": user.username,
            "name": user.public_name,
            "bot": True,
            "scope": token.scope,
        }
    )


def _move(user, request: HttpRequest, game_id: int) -> dict[str, Any]:
    data = _body(request)
    return play.play_move(user, game_id, data.get("move"), data.get("version"))


def _accept(user, request: HttpRequest, invite_id: int) -> dict[str, Any]:
    return play.answer_invitation(user, invite_id, accept=True)


def _decline(user, request: HttpRequest, invite_id: int) -> dict[str, Any]:
    return play.answer_invitation(user, invite_id, accept=False)


def _join(user, request: HttpRequest, table_id: int) -> dict[str, Any]:
    return play.join_open_table(user, table_id)


move = _action(_move)
accept = _action(_accept)
decline = _action(_decline)
join = _action(_join)


def _ndjson(body: Any) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type="application/x-ndjson")
    # nginx would otherwise hold lines back to fill its buffer.
    response["X-Accel-Buffering"] = "no"
    response["Cache-Control"] = "no-store"
    return response


async def event_stream(request: HttpRequest) -> HttpResponseBase:
    if request.method != "GET":
        return HttpResponse(status=405)
    token = await database_sync_to_async(_authenticate)(request)
    if isinstance(token, JsonResponse):
        return token
    return _ndjson(streams.events(token.user))


async def game_stream(request: HttpRequest, game_id: int) -> HttpResponseBase:
    if request.method != "GET":
        return HttpResponse(status=405)
    token = await database_sync_to_async(_authenticate)(request)
    if isinstance(token, JsonResponse):
        return token
    found = await database_sync_to_async(streams.seat_in_game)(game_id, token.user)
    if found is None:
        return _refused(404, "no-game", _("You have no seat in this game."))
    return _ndjson(streams.game(game_id, token.user))
