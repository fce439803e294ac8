"""One-click unsubscribe: the signed link in an email turns that one kind of email off.

The link works without a login (an email is often read on another device). A GET only shows
what will happen, so a mail scanner that follows links changes nothing; the POST does it. A
mail client's RFC 8058 one-click POST carries no CSRF token, so this view alone is exempt:
the signed token in its URL is what proves the request came from our email.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications.kinds import Kind
from notifications.preferences import turn_off
from notifications.unsubscribe_tokens import BadToken, read_token


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        wanted = read_token(token)
    except BadToken:
        return render(request, "notifications/unsubscribe_invalid.html", status=400)
    user = get_user_model().objects.filter(pk=wanted.user_id).first()
    if user is None:
        return render(request, "notifications/unsubscribe_invalid.html", status=400)
    context = {"kind_label": Kind(wanted.kind).label, "token": token}
    if request.method == "POST":
        turn_off(user, wanted.kind)
        return render(request, "notifications/unsubscribe_done.html", context)
    return render(request, "notifications/unsubscribe_confirm.html", context)
