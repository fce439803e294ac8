"""Counting the template parts a test's code renders, whatever thread renders them."""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

from template_partials.templatetags.partials import TemplateProxy


@contextlib.contextmanager
def counted_renders() -> Iterator[Counter[str]]:
    """How many times each template part (``{% partialdef name %}``) was rendered while the
    block runs, by name.  Counted where django-template-partials renders a part: it bypasses
    the signal Django's test setup sends for whole templates."""
    counts: Counter[str] = Counter()
    lock = threading.Lock()
    original = TemplateProxy.render

    def counted(self: TemplateProxy, context: Any) -> str:
        with lock:
            counts[self.name] += 1
        return original(self, context)

    TemplateProxy.render = counted  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        TemplateProxy.render = original  # type: ignore[method-assign]
