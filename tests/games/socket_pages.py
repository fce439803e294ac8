"""What a game page shows after the frames its socket was sent: each frame carries only the
parts that changed (top-level elements with an id, swapped in by id), so a test that asks
what the page shows puts them together as htmx does."""

from __future__ import annotations

from html.parser import HTMLParser

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
        self.parts: list[tuple[str, str]] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.start = self._offset()
            self.current_id = dict(attrs).get("id")
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


def frame_parts(html: str) -> list[tuple[str, str]]:
    """The parts a socket frame (or an htmx answer) swaps in, by id, in order."""
    parser = _TopLevel(html)
    parser.feed(html)
    parser.close()
    assert parser.depth == 0, "the frame's elements are not closed"
    return parser.parts


class SocketPage:
    """A game page's parts as its socket's frames leave them."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}

    def apply(self, frame: str) -> list[str]:
        """Swap in the frame's parts; the ids it carried."""
        ids = []
        for element_id, html in frame_parts(frame):
            self.parts[element_id] = html
            ids.append(element_id)
        return ids

    @property
    def html(self) -> str:
        return "".join(self.parts.values())
