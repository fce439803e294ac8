"""A game page's update as named parts, and what one socket has already been sent of them.

Each game's page template lists its parts in the partial ``updates`` (``{% partial status %}
{% partial players %}…``); each part is one top-level element with an id and
``hx-swap-oob``.  :func:`render_parts` renders them one by one in a single pass with the
same context and switches as ``updates`` (so their concatenation is byte for byte what
``updates`` renders), which lets a socket send only the parts that changed and lets the parts
that every viewer sees alike be rendered once for all of them.

Which parts are alike for every viewer is the presentation's word
(``Presentation.public_parts``): they are rendered from a spectator's context only, so they
cannot hold anything a seat alone may see; the tests check, over many random games, that
each seat's own render of them is the same bytes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.template import Context
from template_partials.templatetags.partials import RenderPartialNode

from games.presenters import swapped_in
from games.presenters.fragment_reuse import LOCALE, compiled_template, locale_now

# What a socket shows for each part: (part name, HTML) in page order.
Parts = tuple[tuple[str, str], ...]

# Parts that only ever grow at their start, by the id of their list: the log, newest first.
# Once a socket has sent one, it sends only the new entries, put at the list's start (htmx's
# "afterbegin"), and the page keeps as many entries as a render shows (game-shell.js).
GROWING = {"log": "game-log-list"}
# A log entry as the game templates write it: its version, then lines of escaped text.
LOG_ENTRY = re.compile(r'<li value="\d+" data-version="(\d+)">.*?</li>', re.S)
BLANKS = re.compile(r"\s+")


@functools.lru_cache(maxsize=1024)  # every spectator of a game asks with the same two strings
def appended(known: str, html: str, list_id: str) -> str | None:
    """The entries ``html`` adds to ``known`` (both renders of a growing part) as an element
    that puts them at the start of the page's list; None when ``html`` is not ``known`` with
    entries added at its start (and perhaps the oldest dropped): then the whole part is sent."""
    before = {m.group(1): m.group(0) for m in LOG_ENTRY.finditer(known)}
    if not before or _around_entries(known) != _around_entries(html):
        return None
    last = max(int(version) for version in before)
    added = []
    for entry in LOG_ENTRY.finditer(html):
        version = entry.group(1)
        if int(version) > last:
            added.append(entry.group(0))
        elif before.get(version) != entry.group(0):
            return None  # an entry the page has would read otherwise
    if not added:
        return None
    return f'<ol id="{list_id}" hx-swap-oob="afterbegin">{"".join(added)}</ol>'


def _around_entries(html: str) -> str:
    """A growing part without its entries and the blanks between them."""
    return BLANKS.sub(" ", LOG_ENTRY.sub("", html))


@functools.cache
def _updates_nodes(template: str) -> tuple[Any, tuple[RenderPartialNode, ...]]:
    """The ``updates`` partial of ``template`` and its parts' nodes, in order."""
    proxy = compiled_template(f"{template}#updates")
    nodes = tuple(proxy.nodelist.get_nodes_by_type(RenderPartialNode))
    return proxy, nodes


def part_names(template: str) -> tuple[str, ...]:
    """The parts of ``template``'s ``updates``, in page order."""
    return tuple(node.partial_name for node in _updates_nodes(template)[1])


def render_parts(
    template: str, context: Mapping[str, Any], names: Iterable[str] | None = None
) -> Parts:
    """The parts of ``template``'s ``updates`` (only ``names``, if given) drawn for the
    socket (``oob``), each on its own, in page order.  ``updates`` draws them with
    localisation off; so does this."""
    proxy, nodes = _updates_nodes(template)
    wanted = None if names is None else frozenset(names)
    ctx = Context(swapped_in(context), autoescape=True, use_l10n=False)
    # The parts switch no language or time zone (no ``{% language %}`` in them): read once
    # for every fragment's key.
    setattr(ctx, LOCALE, locale_now())
    with ctx.render_context.push_state(proxy), ctx.bind_template(proxy):
        return tuple(
            (node.partial_name, node.render(ctx))
            for node in nodes
            if wanted is None or node.partial_name in wanted
        )


@dataclass(frozen=True)
class Rendered:
    """A viewer's parts at ``version``.  ``stamp`` is what the parts show that a version does
    not count (the seat's own rack order or draft, changed over HTTP): a socket whose last
    parts had another stamp cannot know what its page shows, and sends every part."""

    version: int
    parts: Parts
    stamp: Any = None


class SentParts:
    """What one socket last sent of each part, so it sends only those that changed.

    Knowing is only ever narrowing what is sent: after anything the socket did not send
    itself reached the page (an answer over HTTP, a draft, a reconnect: a new socket), it
    forgets and sends every part again."""

    def __init__(self) -> None:
        self._parts: dict[str, str] = {}
        self._stamp: Any = None

    def forget(self) -> None:
        self._parts = {}

    def changed(self, rendered: Rendered, *, whole: bool = False) -> str:
        """The HTML to send for ``rendered``: the parts that differ from what was sent
        (every part when ``whole``, or when the viewer's stamp moved); counted as sent."""
        if whole or rendered.stamp != self._stamp:
            self._parts = {}
        self._stamp = rendered.stamp
        return self.note(rendered.parts)

    def note(self, parts: Parts, *, always: bool = False) -> str:
        """Count ``parts`` as sent and give the HTML of those that differ from what was sent
        (of all of them when ``always``: a refusal's answer, another seat's arranging note)."""
        out = []
        sent = self._parts
        for name, html in parts:
            known = sent.get(name)
            if not always and (known is html or known == html):
                continue
            sent[name] = html
            grown = None
            if known is not None and not always and name in GROWING:
                grown = appended(known, html, GROWING[name])
            out.append(html if grown is None else grown)
        return "".join(out)
