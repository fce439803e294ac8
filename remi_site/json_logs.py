"""Logs an operator's tools can read: one JSON object per line when ``LOG_FORMAT=json``.

Every line carries the time in UTC (plain lines too: one clock, whatever the machine's zone),
the level, the logger and the message, and what is known of the work it belongs to: the
request's id (the proxy's ``X-Request-ID`` when it sends a sane one, else a new one, echoed in
the answer), the signed-in user's id, and the game's id and version once a view or a move names
them (``bind``).  Only ids and numbers are bound, never a rack, the wall or a seed: the
hidden-information walk (tests/games/test_hidden_information.py) reads the log lines too.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# What a line may carry besides the record itself; anything else passed to ``bind`` is refused
# (a typo or a rack must not slip into every later line).
CONTEXT_FIELDS = ("request_id", "user_id", "game_id", "version")

_context: contextvars.ContextVar[dict[str, int | str] | None] = contextvars.ContextVar(
    "remi_log_context", default=None
)

REQUEST_ID_HEADER = "X-Request-ID"
# A proxy's id is kept only when it is short and plain: it goes into every line of the request.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def bind(**fields: int | str | None) -> None:
    """Add ``fields`` to every line logged from here on in this request, task or socket event."""
    unknown = set(fields) - set(CONTEXT_FIELDS)
    if unknown:
        raise ValueError(f"not a log context field: {', '.join(sorted(unknown))}")
    current = dict(_context.get() or {})
    current.update({name: value for name, value in fields.items() if value is not None})
    _context.set(current)


def context() -> dict[str, int | str]:
    return dict(_context.get() or {})


def utc_stamp(created: float) -> str:
    return (
        datetime.fromtimestamp(created, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": utc_stamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(context())
        for name in CONTEXT_FIELDS:  # passed as logging's ``extra=``
            if name in record.__dict__:
                entry[name] = record.__dict__[name]
        status = record.__dict__.get("status_code")
        if isinstance(status, int):
            entry["status"] = status
        if "duration_ms" in record.__dict__:
            entry["duration_ms"] = record.__dict__["duration_ms"]
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class UtcFormatter(logging.Formatter):
    """The plain format, its clock in UTC like the JSON lines'."""

    converter: Callable[[float | None], time.struct_time] = time.gmtime
    default_msec_format = "%s.%03dZ"


access_logger = logging.getLogger("remi.access")


def request_context_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """A fresh context for each request, kept after the answer (not reset): Django logs a 4xx
    or 5xx answer ("Not Found: ...") only once the middleware has returned, and that line must
    carry the ids too.  The next request starts afresh, so nothing leaks into it."""

    # Here, not at the top: the logging configuration imports this module while Django is
    # still setting up, before the metrics module's imports can load.
    from remi_site import metrics

    def middleware(request: HttpRequest) -> HttpResponse:
        given = request.headers.get(REQUEST_ID_HEADER, "")
        request_id = given if SANE_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        _context.set({"request_id": request_id})
        started = time.monotonic()
        response = get_response(request)
        response[REQUEST_ID_HEADER] = request_id
        metrics.request_answered(response.status_code)
        if settings.ACCESS_LOG:
            # Path without the query (it may carry an invite code); daphne's own access log
            # (text, local clock) is off when this one is on (deploy/, docs/operations.md).
            access_logger.info(
                "%s %s %d",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "status_code": response.status_code,
                    "duration_ms": round((time.monotonic() - started) * 1000, 1),
                },
            )
        return response

    return middleware


class ViewContextMiddleware:
    """After authentication: the user's id, and the game's id when the view is a game's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            bind(user_id=user.pk)
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        if match is not None and match.route.startswith("games/<") and "pk" in kwargs:
            bind(game_id=kwargs["pk"])


def start_afresh(**_signal_arguments: Any) -> None:
    """A worker runs task after task in one context: each starts with no ids bound, so a bot
    move's game and version never label the next task's lines."""
    _context.set({})
