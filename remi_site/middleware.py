"""Site-wide request guards."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# No page of the site needs a longer address; browsers and proxies commonly stop near 8 KB.
MAX_URL_LENGTH = 4096


def overlong_url_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Answer 414 to an overlong address before any view sees it.

    Otherwise a login-only page sends the visitor to the login page carrying the whole address
    in ``next``, Django refuses to build such a redirect, and every probe logs a traceback.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        if len(request.get_full_path()) > MAX_URL_LENGTH:
            return HttpResponse(
                "This address is too long. Go back to the page you came from and try again.",
                status=414,
                content_type="text/plain; charset=utf-8",
            )
        return get_response(request)

    return middleware
