"""A finger on the screen: touch events sent through the browser's input pipeline (Chrome
DevTools Protocol), which the page's scripts see as a person's hold and drag."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

HOLD_MS = 300  # longer than the pages' drag delay on touch (150 ms): a shorter touch is a tap


def touch_drag(page: Page, source: Locator, target: Locator) -> None:
    """Hold a finger on ``source``, slide it onto ``target`` and lift it."""
    for part in (source, target):  # a finger aims at what it sees, not at a moving tile
        part.element_handle().wait_for_element_state("stable")
    start, end = source.bounding_box(), target.bounding_box()
    assert start is not None and end is not None
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[dict[str, float]]) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    handle = source.element_handle()
    try:
        touch("touchStart", [{"x": x0, "y": y0}])
        page.wait_for_timeout(HOLD_MS)
        # The hold is over when the page says so (SortableJS marks the tile chosen): on a busy
        # machine its timer may fire late, and moving before it would be a scroll, not a drag.
        page.wait_for_function("tile => tile.classList.contains('sortable-chosen')", arg=handle)
        steps = 12
        for step in range(1, steps + 1):
            x = x0 + (x1 - x0) * step / steps
            y = y0 + (y1 - y0) * step / steps
            touch("touchMove", [{"x": x, "y": y}])
            page.wait_for_timeout(20)
        touch("touchEnd", [])
    finally:
        cdp.detach()
