/* A redraw from the server (a draft's answer, a socket push) may replace the piece a player is
   pressing after the press and before the release.  Chromium then sends no click at all: the
   tap is lost and the page says nothing.  This finishes such a mouse tap on the redrawn piece
   under the pointer, when it is the same control (same kind, data and label), so the game's
   own script sees the click it expected.  Only controls that change nothing but the page are
   finished (picking a piece, a draft's "Put here"): a button that sends a move to the server
   is not, since the redraw may have come from a move that changed what it would do.  Touch
   taps need nothing: the browser aims those at the release point itself. */
(function () {
  "use strict";

  // Plain buttons (type="button") and the labels of check boxes: never a form's submit button.
  const TAPPABLE = 'button[type="button"], label';
  const sends = (el) => el.matches("[hx-get], [hx-post], [data-confirm]");
  const SLOP = 8; // pixels a press may move and still be a tap (further is a drag)

  const signature = (el) =>
    [el.tagName, el.id, JSON.stringify(Object.assign({}, el.dataset)), el.textContent.trim()].join("\u0000");

  let pressed = null; // {el, x, y, sign}
  let finished = null; // the control this script clicked, until the browser's own click could come

  document.addEventListener(
    "pointerdown",
    (event) => {
      const el = event.target.closest && event.target.closest(TAPPABLE);
      const tap =
        event.pointerType === "mouse" && event.button === 0 && el && el.closest("#game") && !sends(el);
      pressed = tap ? { el: el, x: event.clientX, y: event.clientY, sign: signature(el) } : null;
    },
    true,
  );

  document.addEventListener(
    "pointerup",
    (event) => {
      const was = pressed;
      pressed = null;
      if (!was || was.el.isConnected || event.pointerType !== "mouse") return;
      if (Math.hypot(event.clientX - was.x, event.clientY - was.y) > SLOP) return;
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const now = under && under.closest(TAPPABLE);
      if (!now || now.disabled || signature(now) !== was.sign) return;
      finished = now;
      setTimeout(() => (finished = null), 0);
      now.click();
    },
    true,
  );

  // Should a browser still send its own click for that release, it would undo the tap.
  document.addEventListener(
    "click",
    (event) => {
      if (event.isTrusted && finished && finished.contains(event.target)) {
        event.stopImmediatePropagation();
        event.preventDefault();
      }
    },
    true,
  );
})();
