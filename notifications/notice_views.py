"""The viewer's notices as a fragment (``notifications.notices.on_pages``), which "My
games" fetches once it has loaded: the page itself stays within its query budget."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from notifications.notices import on_pages


@require_GET
@login_required
def page_notices(request: HttpRequest) -> HttpResponse:
    return render(request, "notifications/notices.html", {"notices": on_pages(request.user)})
