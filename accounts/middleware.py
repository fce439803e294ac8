"""Show the site in a logged-in player's preferred language."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


def preferred_language_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    # Runs after LocaleMiddleware (which guessed from the browser) and the auth middleware;
    # a saved choice wins over the browser's guess.
    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "preferred_language", "") if user is not None else ""
        if user is not None and user.is_authenticated and language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return get_response(request)

    return middleware
