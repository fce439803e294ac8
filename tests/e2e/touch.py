"""A finger on the screen: touch events sent through the browser's input pipeline (Chrome
DevTools Protocol), which the page's scripts see as a person's hold and drag; and a mouse that
holds, slides and lifts the same way."""

from __future__ import annotations

from playwright.sync_api import CDPSession, Locator, Page

HOLD_MS = 300  # longer than the pages' drag delay on touch (150 ms): a shorter touch is a tap
SETTLE_MS = 150  # longer than the pages' drag animation (120 ms)


def centre(part: Locator) -> tuple[float, float]:
    box = part.bounding_box()
    assert box is not None, f"{part} is not on the page"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# How often a finger or mouse follows its target before lifting anyway (a target that
# takes no tiles never has the place holder: the drop is then the test's to judge).
FOLLOW_MAX = 20

# SortableJS moves the held tile itself (chosen) from list to list as a place holder; the
# copy that follows a finger is chosen too, and marked sortable-fallback.
ARRIVED = """target => {
  const holder = document.querySelector('.sortable-chosen:not(.sortable-fallback)');
  return !!holder && (target.contains(holder) || target.parentNode.contains(holder));
}"""


def resting_on(target: Locator, attempt: int) -> tuple[float, float]:
    """Where a finger or mouse resting on ``target`` is at its ``attempt``-th look: by the
    centre, a pixel or two to one side and then the other.  A hand never rests on one
    sub-pixel point, and the page needs it not to: the browser sends no move for a point that
    did not change, and SortableJS, over a tile of another list, picks no side at the tile's
    exact middle, so a pointer held at the very centre never places the tile."""
    box = target.bounding_box()
    assert box is not None, f"{target} is not on the page"
    side = 1 if attempt % 2 else -1
    return (
        box["x"] + box["width"] / 2 + side * min(2.0, box["width"] / 4),
        box["y"] + box["height"] / 2 + side * min(2.0, box["height"] / 4),
    )


def arrived(target: Locator) -> bool:
    """Whether the held tile's place holder is in ``target`` or in the list ``target`` is in."""
    return bool(target.evaluate(ARRIVED))


class Finger:
    """One finger: ``hold`` a tile until the page picks it up, ``slide_to`` a target, ``lift``."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.at = (0.0, 0.0)
        self.cdp: CDPSession | None = None

    def _touch(self, kind: str, points: list[dict[str, float]]) -> None:
        assert self.cdp is not None, "the finger is not on the screen"
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def hold(self, source: Locator) -> None:
        source.element_handle().wait_for_element_state("stable")  # aim at what stands still
        self.at = centre(source)
        handle = source.element_handle()
        self.cdp = self.page.context.new_cdp_session(self.page)
        self._touch("touchStart", [{"x": self.at[0], "y": self.at[1]}])
        self.page.wait_for_timeout(HOLD_MS)
        # The hold is over when the page says so (SortableJS marks the tile chosen): on a busy
        # machine its timer may fire late, and moving before it would be a scroll, not a drag.
        self.page.wait_for_function(
            "tile => tile.classList.contains('sortable-chosen')", arg=handle
        )

    def slide_to(self, target: Locator, steps: int = 12) -> None:
        x0, y0 = self.at
        x1, y1 = centre(target)
        for step in range(1, steps + 1):
            x = x0 + (x1 - x0) * step / steps
            y = y0 + (y1 - y0) * step / steps
            self._touch("touchMove", [{"x": x, "y": y}])
            self.page.wait_for_timeout(20)
        # The page makes room for the tile as it passes (the lists reflow, animated): a
        # finger follows the target to where it now is, and waits there before lifting.
        # A busy page takes in the moves late, so the finger stays until the tile's place
        # holder is in the target's list (lifted earlier, the tile drops where it last was).
        for attempt in range(FOLLOW_MAX):
            self.page.wait_for_timeout(SETTLE_MS)
            self.at = resting_on(target, attempt)
            self._touch("touchMove", [{"x": self.at[0], "y": self.at[1]}])
            if attempt >= 2 and arrived(target):
                break
        self.page.wait_for_timeout(SETTLE_MS)

    def lift(self) -> None:
        if self.cdp is None:
            return
        try:
            self._touch("touchEnd", [])
        finally:
            self.cdp.detach()
            self.cdp = None


class Mouse:
    """The same hold, slide and lift with the mouse (SortableJS then drags the browser's own
    way: HTML drag and drop, ended by a drop rather than a release)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.down = False

    def hold(self, source: Locator) -> None:
        source.element_handle().wait_for_element_state("stable")
        handle = source.element_handle()
        self.page.mouse.move(*centre(source))
        self.page.mouse.down()
        self.down = True
        self.page.wait_for_function(
            "tile => tile.classList.contains('sortable-chosen')", arg=handle
        )

    def slide_to(self, target: Locator, steps: int = 12) -> None:
        self.page.mouse.move(*centre(target), steps=steps)
        for attempt in range(FOLLOW_MAX):
            self.page.wait_for_timeout(SETTLE_MS)
            self.page.mouse.move(*resting_on(target, attempt))
            if attempt >= 2 and arrived(target):
                break
        self.page.wait_for_timeout(SETTLE_MS)

    def lift(self) -> None:
        if self.down:
            self.down = False
            self.page.mouse.up()


def touch_drag(page: Page, source: Locator, target: Locator) -> None:
    """Hold a finger on ``source``, slide it onto ``target`` and lift it once the tile is
    there (see ``arrived``)."""
    target.element_handle().wait_for_element_state("stable")
    finger = Finger(page)
    try:
        finger.hold(source)
        finger.slide_to(target)
    finally:
        finger.lift()
