"""Show the site in a logged-in player's preferred language and time zone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.decorators import sync_and_async_middleware


@sync_and_async_middleware
def preferred_language_middleware(
    get_response: Callable[[HttpRequest], Any],
) -> Callable[[HttpRequest], Any]:
    # Runs after LocaleMiddleware (which guessed from the cookie or the browser) and the auth
    # middleware; a saved choice wins over the guess from the moment the player logs in.
    # Async-capable: as the one sync middleware among async ones it made each request hop back
    # from a thread to the event loop (~1.9 ms, and a daphne stopped mid-request never exited).
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponse:
            user = await request.auser() if hasattr(request, "auser") else None
            language = _choose(request, user)
            try:
                response: HttpResponse = await get_response(request)
            finally:
                timezone.deactivate()
            _keep_cookie(request, response, user, language)
            return response

        return middleware_async

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = _choose(request, user)
        try:
            response: HttpResponse = get_response(request)
        finally:
            timezone.deactivate()
        _keep_cookie(request, response, user, language)
        return response

    return middleware


def _choose(request: HttpRequest, user: Any) -> str:
    """Activate the signed-in user's language and time zone; the language saved, if any."""
    if user is None or not user.is_authenticated:
        return ""
    language: str = getattr(user, "preferred_language", "") or ""
    if language in dict(settings.LANGUAGES):
        translation.activate(language)
        request.LANGUAGE_CODE = language
    # Dates and times on the pages are shown in the viewer's own zone (profile).
    timezone.activate(user.zone)
    return language


def _keep_cookie(request: HttpRequest, response: HttpResponse, user: Any, language: str) -> None:
    # The cookie follows the profile, so the site stays in the player's language after
    # logging out and the switcher shows the same choice.
    if (
        language
        and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language
        and settings.LANGUAGE_COOKIE_NAME not in response.cookies
    ):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            # django-stubs' plugin types a setting from its value here (a str), not as
            # the setting's stub says (one of Django's SameSite values).
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
        )
