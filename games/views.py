"""Game page views.  SCAFFOLD: being built now (issue 4)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse


def _not_yet(request: HttpRequest, **kwargs: object) -> HttpResponse:
    raise Http404("Not built yet.")


game = act = arrange_rack = next_game = replay = _not_yet
