"""``{% reuse %}...{% endreuse %}``: a part of a page kept for the data it shows
(``games.presenters.fragment_reuse``)."""

from __future__ import annotations

from django import template
from django.template.base import Parser, Token

from games.presenters.fragment_reuse import ReuseNode

register = template.Library()


@register.tag
def reuse(parser: Parser, token: Token) -> ReuseNode:
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("{% reuse %} takes no arguments.")
    nodelist = parser.parse(("endreuse",))
    parser.delete_first_token()
    origin = getattr(parser, "origin", None)
    where = f"{getattr(origin, 'template_name', None) or '?'} line {token.lineno}"
    return ReuseNode(nodelist, where)
