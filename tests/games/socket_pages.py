"""What a game page shows after the frames its socket was sent: each frame carries only the
parts that changed (top-level elements with an id, swapped in by id), so a test that asks
what the page shows puts them together as htmx does."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from games.presenters import LOG_ACTIONS

VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})


class _TopLevel(HTMLParser):
    """The spans of a fragment's top-level elements, with their ids."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.line_starts = [0]
        for line in html.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.depth = 0
        self.start = 0
        self.current_id: str | None = None
        self.current_swap: str | None = None
        self.parts: list[tuple[str, str]] = []
        self.swaps: dict[str, str | None] = {}  # by id: the element's hx-swap-oob

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.start = self._offset()
            self.current_id = dict(attrs).get("id")
            self.current_swap = dict(attrs).get("hx-swap-oob")
            if tag in VOID:
                self._close(self.start + len(self.get_starttag_text() or ""))
                return
        if tag not in VOID:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.start = self._offset()
            self.current_id = dict(attrs).get("id")
            self._close(self.start + len(self.get_starttag_text() or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        self.depth -= 1
        if self.depth == 0:
            end = self.html.index(">", self._offset()) + 1
            self._close(end)

    def _close(self, end: int) -> None:
        element = self.html[self.start : end]
        assert self.current_id, f"a top-level element without an id: {element[:200]}"
        self.parts.append((self.current_id, element))
        self.swaps[self.current_id] = self.current_swap


def _parsed(html: str) -> _TopLevel:
    parser = _TopLevel(html)
    parser.feed(html)
    parser.close()
    assert parser.depth == 0, "the frame's elements are not closed"
    return parser


def frame_parts(html: str) -> list[tuple[str, str]]:
    """The parts a socket frame (or an htmx answer) swaps in, by id, in order."""
    return _parsed(html).parts


LOG_ENTRY = re.compile(r"<li value=.*?</li>", re.S)


def _appended(part: str, list_id: str, element: str) -> str:
    """``part`` with the items of ``element`` (an "afterbegin" swap) put at the start of its
    list ``list_id``, which then keeps its first LOG_ACTIONS entries, as the page's script."""
    opening = re.search(rf'<ol [^>]*id="{list_id}"[^>]*>', part)
    assert opening, f"no list {list_id} on the page for an appended frame"
    close = part.index("</ol>", opening.end())
    items = element[element.index(">") + 1 : element.rindex("</ol>")]
    inner = items + part[opening.end() : close]
    entries = LOG_ENTRY.findall(inner)
    kept = inner
    for dropped in entries[LOG_ACTIONS:]:
        kept = kept.replace(dropped, "", 1)
    return part[: opening.end()] + kept + part[close:]


class SocketPage:
    """A game page's parts as its socket's frames leave them."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}

    def apply(self, frame: str) -> list[str]:
        """Swap in the frame's parts; the ids it carried."""
        parsed = _parsed(frame)
        ids = []
        for element_id, html in parsed.parts:
            if parsed.swaps[element_id] == "afterbegin":
                holder = next(k for k, v in self.parts.items() if f'id="{element_id}"' in v)
                self.parts[holder] = _appended(self.parts[holder], element_id, html)
            else:
                self.parts[element_id] = html
            ids.append(element_id)
        return ids

    @property
    def html(self) -> str:
        return "".join(self.parts.values())

    def shown(self) -> dict[str, str]:
        """The parts by id, without the blanks between tags (appended entries come without
        the template's indentation)."""
        return {key: squeezed(html) for key, html in self.parts.items()}


def squeezed(html: str) -> str:
    return re.sub(r">\s+<", "><", html).strip()


def whole(html: str) -> dict[str, str]:
    """A whole update's parts by id, as :meth:`SocketPage.shown` gives them."""
    return {key: squeezed(part) for key, part in frame_parts(html)}
