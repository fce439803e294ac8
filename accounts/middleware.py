"""Show the site in a logged-in player's preferred language and time zone."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation


def preferred_language_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    # Runs after LocaleMiddleware (which guessed from the cookie or the browser) and the auth
    # middleware; a saved choice wins over the guess from the moment the player logs in.
    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "preferred_language", "") if user is not None else ""
        signed_in = user is not None and user.is_authenticated
        if signed_in and language in dict(settings.LANGUAGES):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        if signed_in and user is not None:  # (signed_in implies it: for mypy)
            # Dates and times on the pages are shown in the viewer's own zone (profile).
            timezone.activate(user.zone)
        try:
            response = get_response(request)
        finally:
            timezone.deactivate()
        # The cookie follows the profile, so the site stays in the player's language after
        # logging out and the switcher shows the same choice.
        if (
            signed_in
            and language
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
        return response

    return middleware
