"""``{% page_notices %}``: the viewer's notices (notifications.notices.on_pages), on the
pages that show them; a page without the tag costs no query."""

from __future__ import annotations

from typing import Any

from django import template

from notifications.notices import on_pages

register = template.Library()


@register.inclusion_tag("notifications/notices.html", takes_context=True)
def page_notices(context: Any, tournament_id: int | None = None) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"notices": on_pages(user, tournament_id=tournament_id)}
