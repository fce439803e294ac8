"""A finger on the screen: touch events sent through the browser's input pipeline (Chrome
DevTools Protocol), which the page's scripts see as a person's hold and drag."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

HOLD_MS = 300  # longer than the pages' drag delay on touch (150 ms): a shorter touch is a tap
SETTLE_MS = 150  # longer than the pages' drag animation (120 ms)


def centre(part: Locator) -> tuple[float, float]:
    box = part.bounding_box()
    assert box is not None, f"{part} is not on the page"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def touch_drag(page: Page, source: Locator, target: Locator) -> None:
    """Hold a finger on ``source``, slide it onto ``target`` and lift it."""
    for part in (source, target):  # a finger aims at what it sees, not at a moving tile
        part.element_handle().wait_for_element_state("stable")
    x0, y0 = centre(source)
    x1, y1 = centre(target)
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
        # The page makes room for the tile as it passes (the lists reflow, animated): a
        # finger follows the target to where it now is, and waits there before lifting.
        for _ in range(3):
            page.wait_for_timeout(SETTLE_MS)
            x1, y1 = centre(target)
            touch("touchMove", [{"x": x1, "y": y1}])
        page.wait_for_timeout(SETTLE_MS)
        touch("touchEnd", [])
    finally:
        cdp.detach()
