/* Basic Rummy's game page, and the card rummies' shared page script (Thai Rummy's page loads it
   too).  The hand (and a discard pile whose cards can be picked) is a row of checkboxes drawn as
   cards, so picking works without this script (click, tap, Tab and Space); the script adds the
   keys, keeps the picked cards and the focus across redraws, marks the pile cards a pickup
   takes along, lets a refused move's message through and runs the move clock.  What every
   game's page shares (failed requests, the socket's state, the typed move, forms just swapped
   in) is game-shell.js, loaded first. */
(() => {
  "use strict";
  const one = (sel, root = document) => root.querySelector(sel);
  const all = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  const PICKABLE = ".hand-card input, .pile-card input";

  // Arrow keys move along the hand (or the pile); Enter ticks a card like Space does.
  document.addEventListener("keydown", (event) => {
    const box = event.target;
    if (!box.matches || !box.matches(PICKABLE)) return;
    const row = box.closest(".hand-card") ? ".hand-card input" : ".pile-card input";
    const boxes = all(row);
    const at = boxes.indexOf(box);
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      const next = boxes[at + (event.key === "ArrowRight" ? 1 : -1)];
      if (next) next.focus();
      event.preventDefault();
    } else if (event.key === "Enter") {
      box.click();
      event.preventDefault();
    }
  });

  // The picked cards survive a redraw (a socket push may redraw the hand while a player is
  // picking). Once the player's own move is in, the cards it used are let go; cards picked
  // while it was on its way (the socket often shows the move before the answer comes) stay,
  // and so do cards picked ahead of a move that uses none (a draw: marked data-keeps-picks),
  // or of a typed move.
  const picked = new Set();
  let sent = new Set();
  document.addEventListener("change", (event) => {
    const box = event.target;
    if (!box.matches || !box.matches(PICKABLE)) return;
    if (box.checked) picked.add(box.value);
    else picked.delete(box.value);
  });
  // Only a move's request says what it used: the chat (also on the page) leaves it alone.
  document.body.addEventListener("htmx:configRequest", (event) => {
    const elt = event.detail.elt;
    if (elt.id !== "action-form" && elt.id !== "notation-form") return;
    const cause = event.detail.triggeringEvent;
    const button = cause && cause.submitter;
    const usesPicks = elt.id === "action-form" && !(button && button.hasAttribute("data-keeps-picks"));
    sent = usesPicks ? new Set(picked) : new Set();
  });
  document.body.addEventListener("remi:acted", () => {
    sent.forEach((card) => picked.delete(card));
    sent = new Set();
  });

  // Taking from the discard pile takes the deepest card picked and every card above it (later
  // in the row): those are marked, so the player sees the whole pickup before sending it.
  function markPickup() {
    const boxes = all(".pile-card input");
    const deepest = boxes.findIndex((box) => box.checked);
    boxes.forEach((box, at) => {
      box.closest(".pile-card").classList.toggle("comes-along", deepest >= 0 && at > deepest && !box.checked);
    });
  }
  document.addEventListener("change", (event) => {
    if (event.target.matches && event.target.matches(".pile-card input")) markPickup();
  });

  function repick() {
    all(PICKABLE).forEach((box) => {
      box.checked = picked.has(box.value);
    });
    markPickup();
  }

  // A 400 or 403 still carries a message for the error area.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const status = event.detail.xhr.status;
    if ((status === 400 || status === 403) && event.detail.elt.closest("#game")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // A redraw replaces the element a keyboard user was on: put focus back on the same card or
  // control so the next key press is not lost.
  let focusedAt = null;
  document.addEventListener("focusin", (event) => {
    const el = event.target;
    if (!el.closest || !el.closest("#game")) return;
    const card = el.closest(".hand-card, .pile-card");
    focusedAt = card ? { card: card.dataset.card } : el.id ? { id: el.id } : null;
  });

  function refocus() {
    if (!focusedAt || (document.activeElement && document.activeElement !== document.body)) return;
    const el = focusedAt.id
      ? document.getElementById(focusedAt.id)
      : one(`[data-card="${focusedAt.card}"] input`);
    if (el) el.focus();
  }

  function afterSwap() {
    repick();
    refocus();
  }
  document.body.addEventListener("htmx:oobAfterSwap", afterSwap);
  document.body.addEventListener("htmx:wsAfterMessage", afterSwap);
  document.body.addEventListener("htmx:afterSwap", afterSwap);

  // The replay's arrow keys.
  document.addEventListener("keydown", (event) => {
    if (!one("#replay") || event.target.closest("input, select, textarea")) return;
    const button = one(`[data-replay="${event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : ""}"]`);
    if (button && !button.disabled) button.click();
  });

  // The move clocks: static/js/game-shell.js.
})();
