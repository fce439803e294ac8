"""The language and time zone a WebSocket renders in: the same as the viewer's pages.

A socket has no request for LocaleMiddleware, so its renders would fall back to the site's
default language (English), and a Romanian visitor's lobby would turn English at the first
live update. The handshake carries what a page request carries: the player's profile (through
the session), the language cookie of the switcher, and the browser's Accept-Language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils import timezone, translation

P = ParamSpec("P")
R = TypeVar("R")


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def scope_language(scope: dict[str, Any]) -> str:
    """Profile first, then the switcher's cookie, then the browser: as accounts/middleware.py."""
    user = scope.get("user")
    chosen = getattr(user, "preferred_language", "") if user is not None else ""
    if user is not None and user.is_authenticated and chosen in dict(settings.LANGUAGES):
        return chosen
    handshake = HttpRequest()
    handshake.COOKIES = parse_cookie(_header(scope, b"cookie"))
    handshake.META["HTTP_ACCEPT_LANGUAGE"] = _header(scope, b"accept-language")
    return translation.get_language_from_request(handshake)


def viewer_locale(scope: dict[str, Any]) -> tuple[str, Any]:
    """The socket viewer's language and time zone (None: the site's), hashable, so renders
    shared between sockets can be kept per locale."""
    user = scope.get("user")
    zone = user.zone if user is not None and user.is_authenticated else None
    if zone is not None and str(zone) == str(timezone.get_default_timezone()):
        zone = None  # the site's own: shared with visitors
    return scope_language(scope), zone


def run_in_locale(locale: tuple[str, Any], render: Callable[P, R], *args: Any, **kwargs: Any) -> R:
    """``render(*args, **kwargs)`` in the language and time zone of :func:`viewer_locale`."""
    language, zone = locale
    # The zone is set even when it is the site's own (None): a render nested in another
    # viewer's (the move's hop renders for every socket) must not keep the outer one's.
    with translation.override(language), timezone.override(zone):
        return render(*args, **kwargs)


def in_viewer_locale(scope: dict[str, Any], render: Callable[P, R]) -> Callable[P, R]:
    """``render`` run in the socket viewer's language and time zone (for sync_to_async)."""
    language = scope_language(scope)
    user = scope.get("user")
    zone = user.zone if user is not None and user.is_authenticated else None

    def rendered(*args: P.args, **kwargs: P.kwargs) -> R:
        with translation.override(language):
            if zone is None:
                return render(*args, **kwargs)
            with timezone.override(zone):
                return render(*args, **kwargs)

    return rendered
