/* What every game's page shares.  Loaded before the game's own script, so its handlers run
   first.  Two parts: a tap a redraw cut short, then the rest. */

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

(function () {
  "use strict";

  const one = (selector) => document.querySelector(selector);
  const inGame = (el) => Boolean(el && el.closest && el.closest("#game"));
  // The page's sentences come from the template (in the viewer's language) when it has them.
  const words = (name, fallback) => {
    const game = one("#game");
    return (game && game.dataset[name]) || fallback;
  };

  function say(text) {
    const note = one("#game-error");
    if (!note) return;
    note.textContent = text;
    note.classList.remove("game-notice");
  }

  // --- Failed requests ----------------------------------------------------------------------

  // Nothing was swapped, so the player's selection and draft are still on the page: say so,
  // and that trying again is safe (a move that did reach the server is checked by version).
  const UNREACHABLE =
    "Could not reach the server: check your connection and try again. Your selection is kept.";
  const SERVER_FAILED =
    "The server could not handle that (error %s). Your selection is kept: try again in a moment.";

  ["htmx:sendError", "htmx:timeout"].forEach((name) =>
    document.body.addEventListener(name, (event) => {
      if (inGame(event.detail.elt)) say(words("sayUnreachable", UNREACHABLE));
    }),
  );
  document.body.addEventListener("htmx:responseError", (event) => {
    if (!inGame(event.detail.elt)) return;
    const status = String(event.detail.xhr.status);
    say(words("sayServerFailed", SERVER_FAILED).replace("%s", status));
  });

  // --- The socket ---------------------------------------------------------------------------

  const LOST = "Connection lost: reconnecting… Moves still work; the page catches up.";
  const CLOSED = "Connection closed: reload the page to follow the game.";
  // The codes after which the htmx ws extension tries again; after any other it gives up.
  const RETRIED = [1006, 1011, 1012, 1013];
  function connection(text) {
    const note = one("#game-connection");
    if (!note) return;
    note.textContent = text;
    note.hidden = !text;
  }
  // On reconnecting, the socket asks for the version the page was drawn at and is sent
  // whatever came since (games/consumers.py), so the note is all the page has to do.
  document.body.addEventListener("htmx:wsOpen", () => connection(""));
  document.body.addEventListener("htmx:wsClose", (event) => {
    const closed = event.detail.event;
    const retried = !closed || RETRIED.indexOf(closed.code) >= 0;
    connection(retried ? words("sayLost", LOST) : words("sayClosed", CLOSED));
  });

  // --- The page's name ------------------------------------------------------------------------

  // Given before htmx starts (on DOMContentLoaded, after every deferred script), so the socket
  // opens named: a move this page made over HTTP is then not sent to it again (games/page_tabs.py).
  document.querySelectorAll("[data-page-tab][ws-connect]").forEach((element) => {
    const name = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    element.setAttribute("ws-connect", element.getAttribute("ws-connect") + "&tab=" + name);
    element.setAttribute("hx-headers", JSON.stringify({ "X-Remi-Tab": name }));
  });

  // --- The version a move answers -----------------------------------------------------------

  // The controls are not sent again for each version: a form answers the status's version.
  document.addEventListener("htmx:configRequest", (event) => {
    const data = event.detail.formData;
    const status = one("#game-status[data-version]");
    if (status && inGame(event.detail.elt) && data.has("version")) data.set("version", status.dataset.version);
  });

  // The log is sent only its new entries (games/page_parts.py): keep the 40 a page draws.
  document.body.addEventListener("htmx:oobAfterSwap", (event) => {
    const list = event.detail.target;
    if (list.id === "game-log-list") while (list.children.length > 40) list.lastElementChild.remove();
  });

  // --- Moves over the socket ----------------------------------------------------------------

  // A move form (data-move) goes over the open socket (games/consumers.py); HTTP while it is
  // down.  Not ws-send: it would bind the form twice, and queue moves while the socket is down.
  let socket = null;
  document.body.addEventListener("htmx:wsOpen", (event) => {
    if (event.target.id === "game") socket = event.detail.socketWrapper;
  });
  document.body.addEventListener("htmx:wsClose", (event) => {
    if (event.target.id === "game") socket = null;
  });
  // On the document: after each game's own configRequest has added the selection.
  document.addEventListener("htmx:configRequest", (event) => {
    const detail = event.detail;
    if (!socket || !detail.elt.matches || !detail.elt.matches("#game form[data-move]")) return;
    const fields = {};
    detail.formData.forEach((value, name) => {
      fields[name] = name in fields ? [].concat(fields[name], value) : value;
    });
    socket.send(JSON.stringify(fields), detail.elt);
    event.preventDefault();
  });
  // The answer to a move that went in starts so; the page lets go of what the move used.
  const announceActed = (message) => {
    if (String(message).startsWith("<!--acted-->")) htmx.trigger(document.body, "remi:acted");
  };

  // --- The typed move -----------------------------------------------------------------------

  // Every redraw of the controls (a refusal, another player's move over the socket) replaces
  // the notation box: keep it open, with its text and the caret, so a typo is one key to fix.
  // Only a move that went in empties it.
  let typed = null;
  let moveWentIn = false;
  document.body.addEventListener("remi:acted", () => {
    moveWentIn = true;
  });

  function rememberTyped() {
    const input = one("#notation-input");
    const box = input && input.closest("details");
    if (!input || !box) return;
    typed = {
      open: box.open,
      value: input.value,
      focused: document.activeElement === input,
      start: input.selectionStart,
      end: input.selectionEnd,
    };
  }

  function restoreTyped() {
    if (!typed) return;
    const input = one("#notation-input");
    const box = input && input.closest("details");
    if (input && box) {
      box.open = typed.open;
      if (!moveWentIn) input.value = typed.value;
      if (typed.focused) {
        input.focus();
        if (!moveWentIn) input.setSelectionRange(typed.start, typed.end);
      }
    }
    typed = null;
    moveWentIn = false;
  }

  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "game-controls") rememberTyped();
  });
  ["htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:afterSwap"].forEach((name) =>
    document.body.addEventListener(name, restoreTyped),
  );

  // --- An old refusal goes once the next move is being built -------------------------------

  const BUILDING = [
    "#game-rack .tile",
    "#game-melds .meld",
    "#game-row .row-tile",
    "#game-table .tile",
    "[data-select]",
    "[data-drop]",
    "[data-split]",
    "[data-join]",
    "[data-draft]",
  ].join(", ");

  document.addEventListener("click", (event) => {
    const target = event.target.closest && event.target.closest("button");
    if (target && inGame(target) && target.matches(BUILDING)) say("");
  });
  document.addEventListener("input", (event) => {
    if (event.target.id === "notation-input") say("");
  });
  // The card games pick with check boxes drawn as cards.
  document.addEventListener("change", (event) => {
    const box = event.target;
    if (inGame(box) && box.matches(".hand-card input, .pile-card input")) say("");
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && inGame(event.target)) say("");
  });

  // --- A held tile keeps the lists it was taken from ----------------------------------------

  // While a tile is held (SortableJS chose it, until the drop) the game's socket messages and
  // the answers to its forms wait: drawn at once, they would put new lists under the finger,
  // and the drop would land in the old ones (a rack's new order unsaved, a draft's tile posted
  // twice).  They are drawn in order once the drop's own handlers have run.
  let held = false;
  let heldNews = [];

  function drawHeldNews() {
    held = false;
    const news = heldNews;
    heldNews = [];
    news.forEach(({ socket, message, answer }) => {
      if (answer) {
        // The game's forms swap "none": an answer is its out-of-band parts only.
        htmx.swap(answer.target, answer.html, { swapStyle: "none" });
        if (answer.target.isConnected) htmx.trigger(answer.target, "htmx:afterSwap", answer.detail);
        return;
      }
      if (!socket.isConnected) return;
      announceActed(message);
      // As the ws extension draws a message: each top-level element swaps in by its id.
      const box = document.createElement("template");
      box.innerHTML = message;
      Array.from(box.content.children).forEach((el) => {
        if (!el.matches("[hx-swap-oob], [data-hx-swap-oob]")) el.setAttribute("hx-swap-oob", "true");
      });
      htmx.swap(socket, box.innerHTML, { swapStyle: "none" });
      htmx.trigger(socket, "htmx:wsAfterMessage", { message: message });
    });
  }

  document.addEventListener("choose", (event) => {
    if (inGame(event.target)) held = true;
  });
  // "unchoose" comes with the drop, before its "add" and "end"; the pointer's release also
  // lets go, should a list have gone from the page before it could say so.  Not
  // "pointercancel": the browser sends it as its own drag and drop begins.
  ["unchoose", "pointerup", "mouseup", "touchend", "touchcancel", "dragend", "drop"].forEach((name) =>
    document.addEventListener(
      name,
      () => {
        if (held) setTimeout(drawHeldNews, 0);
      },
      true,
    ),
  );
  document.body.addEventListener("htmx:wsBeforeMessage", (event) => {
    if (event.target.id !== "game") return;
    if (!held) {
      announceActed(event.detail.message);
      return;
    }
    event.preventDefault();
    heldNews.push({ socket: event.target, message: String(event.detail.message) });
  });
  // On the document, so it runs after every page script's own htmx:beforeSwap (on the body)
  // has decided whether this answer is drawn at all.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!held || !detail.shouldSwap || !inGame(detail.elt)) return;
    if (detail.elt.getAttribute("hx-swap") !== "none") return;
    detail.shouldSwap = false;
    heldNews.push({ answer: { target: detail.target, html: detail.serverResponse, detail: detail } });
  });

  // --- One Tab stop per group, arrows inside ------------------------------------------------

  // The discard row or pile, the table, the rack (or hand), its tools and the action bar are
  // each one stop on the Tab key; the arrow keys, Home and End move within them, as in a
  // toolbar.  Marked data-roving in the templates; data-roving="last" starts a group at its
  // last item (the newest discard).  A control hidden until it can act (Rummikub's "Put
  // here") is no item while hidden.
  const ITEMS = "button:not([disabled]), input:not([disabled]):not([type='hidden']), select:not([disabled])";
  const shownItem = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const itemsOf = (group) => Array.from(group.querySelectorAll(ITEMS)).filter(shownItem);
  const MOVES = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

  function makeStop(group, item) {
    itemsOf(group).forEach((el) => {
      el.tabIndex = el === item ? 0 : -1;
    });
  }

  function settleStops() {
    document.querySelectorAll("#game [data-roving]").forEach((group) => {
      const items = itemsOf(group);
      if (!items.length) return;
      const active = items.indexOf(document.activeElement);
      const start = group.dataset.roving === "last" ? items.length - 1 : 0;
      makeStop(group, items[active >= 0 ? active : start]);
    });
  }

  document.addEventListener("keydown", (event) => {
    const group = event.target.closest && event.target.closest("#game [data-roving]");
    if (!group || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // A list box keeps its own up and down.
    if (event.target.tagName === "SELECT" && !(event.key in { ArrowLeft: 1, ArrowRight: 1 })) return;
    const items = itemsOf(group);
    const at = items.indexOf(event.target);
    if (at < 0) return;
    let next = null;
    if (event.key in MOVES) next = at + MOVES[event.key];
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    if (next === null) return;
    event.preventDefault();
    event.stopImmediatePropagation(); // the game's own keys do not also act on it
    const item = items[Math.max(0, Math.min(items.length - 1, next))];
    makeStop(group, item);
    item.focus();
  });
  document.addEventListener("focusin", (event) => {
    const group = event.target.closest && event.target.closest("#game [data-roving]");
    if (group && itemsOf(group).includes(event.target)) makeStop(group, event.target);
  });

  // --- A focused control stays in sight -------------------------------------------------------

  // The dock (rack and move buttons, pinned to the bottom of the screen: site.css) covers the
  // lower part of the table, and the browser, bringing a control reached by Tab into sight,
  // counts the covered part as seen: a meld under the dock had the focus out of sight.  The
  // page scrolls it above the dock, and a stop cut off by a sideways scroller (the discard
  // row on a phone) is brought in whole.  Run as the focus arrives, before the browser's own
  // scroll (which then finds nothing to do), and once more after it.
  const SIGHT_GAP = 8;
  function inScroller(el) {
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      if (box.scrollWidth <= box.clientWidth || !/auto|scroll/.test(getComputedStyle(box).overflowX)) continue;
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      if (r.left < b.left) box.scrollLeft -= b.left - r.left + SIGHT_GAP;
      else if (r.right > b.right) box.scrollLeft += r.right - b.right + SIGHT_GAP;
      return;
    }
  }
  function aboveTheDock(el) {
    const dock = one(".game-dock");
    if (!dock || dock.contains(el) || getComputedStyle(dock).position !== "sticky") return;
    const top = dock.getBoundingClientRect().top;
    const r = el.getBoundingClientRect();
    if (r.height && r.bottom > top - SIGHT_GAP) window.scrollBy(0, r.bottom - top + SIGHT_GAP);
  }
  // Only for a focus the keyboard moved (a tap on a half-covered meld scrolls nothing).
  function keepInSight(el) {
    if (!inGame(el) || !el.matches(":focus-visible")) return;
    inScroller(el);
    // Above the viewport, or wholly below it: the focus put back after a move, which does
    // not scroll (the dock's rack is in sight but for a page scrolled down to the chat).
    const r = el.getBoundingClientRect();
    if (r.top < 0) window.scrollBy(0, r.top - SIGHT_GAP);
    else if (r.top >= window.innerHeight) window.scrollBy(0, r.bottom - window.innerHeight + SIGHT_GAP);
    aboveTheDock(el);
  }
  document.addEventListener("focusin", (event) => {
    keepInSight(event.target);
    requestAnimationFrame(() => {
      if (document.activeElement === event.target) keepInSight(event.target);
    });
  });

  // --- Focus stays where the player was -----------------------------------------------------

  // A move redraws the controls, and the button the player pressed is a new element (or gone,
  // as Draw is once drawn): put focus back on the same control, else at the action bar's
  // start, never at the top of the page.
  let focusedControl = null;
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    const target = event.detail.target;
    const active = document.activeElement;
    if (!target || target.id !== "game-controls" || !active || !target.contains(active)) return;
    focusedControl = {
      id: active.id,
      name: active.getAttribute("name"),
      value: active.getAttribute("value"),
    };
  });

  function refocusControl() {
    const was = focusedControl;
    focusedControl = null;
    const active = document.activeElement;
    if (!was || (active && active !== document.body)) return;
    const controls = one("#game-controls");
    if (!controls) return;
    const usable = (el) => el && !el.disabled && el.offsetParent !== null;
    let el = was.id ? document.getElementById(was.id) : null;
    if (!usable(el) && was.name && was.value !== null) {
      el = controls.querySelector(`[name="${was.name}"][value="${was.value}"]`);
    }
    if (!usable(el)) {
      const bar = controls.querySelector("[data-roving]");
      el = bar ? itemsOf(bar).find(usable) : null;
    }
    if (!usable(el)) el = controls.querySelector("h2") || null;
    if (el) {
      if (!usable(el)) el.tabIndex = -1; // the heading, so a screen reader hears where it is
      el.focus();
    }
  }

  ["htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:afterSwap"].forEach((name) =>
    document.body.addEventListener(name, () => {
      refocusControl();
      settleStops();
    }),
  );
  document.addEventListener("DOMContentLoaded", settleStops);
  settleStops();

  // --- Forms just swapped in -----------------------------------------------------------------

  // htmx wires the elements a swap brings only when the swap settles, a moment later.  A
  // keyboard shortcut pressed in between (the controls are redrawn after every move) clicked
  // an unwired form's button, and the browser submitted it as a plain GET: the page reloaded
  // and the move was lost.  Wiring the form as its submit starts lets htmx take this one.
  // The chat's form, outside the game's region, is redrawn by every message sent: the same.
  const redrawn = (el) => inGame(el) || Boolean(el.closest && el.closest("#game-chat"));
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (redrawn(form) && form.matches("[hx-post], [hx-get]")) htmx.process(form);
    },
    true,
  );
  // htmx learns which button sent a form from the click, which came before the form was
  // wired: the button (a move's verb) is added from the submit event itself, or the server
  // could not read the move.
  document.body.addEventListener("htmx:configRequest", (event) => {
    const submitted = event.detail.triggeringEvent;
    const button = submitted && submitted.type === "submit" ? submitted.submitter : null;
    if (!button || !button.name || !redrawn(button)) return;
    if (!event.detail.formData.has(button.name)) event.detail.formData.set(button.name, button.value);
  });

  // --- Buttons that ask first ---------------------------------------------------------------

  // Capturing, so a "no" stops the click before the form (and htmx) ever sees it; keyboard
  // shortcuts click the button too, and are asked the same.
  document.addEventListener(
    "click",
    (event) => {
      const button = event.target.closest && event.target.closest("button[data-confirm]");
      if (button && !button.disabled && !window.confirm(button.dataset.confirm)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    true,
  );

  // --- The focus outlives a redraw --------------------------------------------------------

  // A part redrawn around the keyboard focus (the meld picked for Add, the button pressed)
  // took the focus to the page's top, dozens of Tab stops away.  It goes to the same control
  // in the new part, else to the rack, once the game's own script has had its say.
  const KEPT = ["data-meld", "data-row", "data-card", "data-tile", "data-select", "name", "value"];
  let lost = null;
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    const active = document.activeElement;
    if (!active || active === document.body || !event.detail.target.contains(active)) return;
    if (active.id) lost = "#" + CSS.escape(active.id);
    else lost = active.tagName + KEPT.filter((a) => active.hasAttribute(a)).map((a) => `[${a}="${CSS.escape(active.getAttribute(a))}"]`).join("");
  });
  function refocus() {
    const wanted = lost;
    lost = null;
    if (!wanted || (document.activeElement && document.activeElement !== document.body)) return;
    const usable = (el) => el && !el.disabled && !el.hidden && el.getClientRects().length > 0;
    const again = [wanted, '#game-rack [tabindex="0"]', "#game-rack button, #game-rack input"]
      .map((selector) => one(`#game ${selector}`))
      .find(usable);
    // A rack with nothing to press (not your turn) holds the focus itself, for the next Tab.
    const rack = one("#game-rack");
    if (!again && rack) rack.tabIndex = -1;
    (again || rack)?.focus({ preventScroll: true });
  }
  ["htmx:afterSwap", "htmx:wsAfterMessage"].forEach((name) => document.body.addEventListener(name, () => setTimeout(refocus, 0)));

  // --- What the last turn brought -----------------------------------------------------------

  // A move reaches the page as redrawn parts.  A tile or card that was not in its part before
  // (the discard, the drawn tile, a new meld, the tiles laid off on one) fades and slides in,
  // in under 300 ms ("arrived": site.css, still under prefers-reduced-motion), and what the
  // other player's turn brought to the table stays marked ("last-move") until another seat
  // moves: the redraws of each later move of the same turn add to the marks, and the next
  // turn's first move starts them again.  Pieces are told apart by part, face and how many
  // alike came before them in the part (Remi has two of every tile).  The page as first drawn
  // brings nothing: its own marks (Remi's last discard and recent melds, Rummikub's placed
  // tiles) come from the server.
  const PIECES = ".tile, .card:not(.card-back):not(.card-empty)";
  const BOARD = ["game-row", "game-piles", "game-melds", "game-table", "game-players"];
  const PARTS = [...BOARD, "game-rack"];
  const faceOf = (el) =>
    el.dataset.tile || el.dataset.card || ((el.className.match(/\b(?:tile|card)-\w+/) || [""])[0] + el.textContent.replace(/\s+/g, ""));
  function piecesOf(part) {
    const count = new Map();
    return Array.from(part.querySelectorAll(PIECES)).map((el) => {
      const face = faceOf(el);
      count.set(face, (count.get(face) || 0) + 1);
      return [`${part.id}|${face}|${count.get(face)}`, el];
    });
  }
  const seatsToAct = () =>
    Array.from(document.querySelectorAll("#game-players .player.is-turn")).map((el) => el.dataset.seat).join(",");
  const lastTurn = { seats: null, keys: new Set() };
  const before = new Map();
  let versionBefore = null;
  let moverBefore = null;
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    const target = event.detail.target;
    if (!target || !inGame(target)) return;
    if (target.id === "game-status") {
      versionBefore = target.dataset.version;
      moverBefore = seatsToAct();
    } else if (PARTS.includes(target.id)) {
      before.set(target.id, new Set(piecesOf(target).map(([key]) => key)));
    }
  });
  document.body.addEventListener("htmx:oobAfterSwap", (event) => {
    const id = event.detail.target && event.detail.target.id;
    if (id === "game-status") {
      const status = one("#game-status");
      if (!status || status.dataset.version === versionBefore) return;
      // A new move: what the one before brought has arrived; by another seat than the last
      // one's, the marks start again (on the parts it leaves as they were, too).
      const drop = (name) => document.querySelectorAll(`#game .${name}`).forEach((el) => el.classList.remove(name));
      drop("arrived");
      if (moverBefore !== lastTurn.seats) {
        lastTurn.seats = moverBefore;
        lastTurn.keys = new Set();
        drop("last-move");
      }
      return;
    }
    if (!PARTS.includes(id) || !before.has(id)) return;
    const known = before.get(id);
    before.delete(id);
    const part = document.getElementById(id);
    if (!part) return;
    const you = one("#game-players .player.is-you");
    const mine = you !== null && lastTurn.seats === you.dataset.seat;
    for (const [key, el] of piecesOf(part)) {
      if (!known.has(key)) {
        el.classList.add("arrived");
        if (BOARD.includes(id) && !mine) lastTurn.keys.add(key);
      }
      if (lastTurn.keys.has(key)) el.classList.add("last-move");
    }
  });

  // --- The move clocks ----------------------------------------------------------------------

  // m:ss under an hour; above, hours and minutes or days and hours in the page's language (a
  // day's correspondence clock read 1439:58).  A live clock's last seconds are marked urgent.
  const URGENT_SECONDS = 10;
  const unit = (n, name) =>
    new Intl.NumberFormat(document.documentElement.lang || undefined, { style: "unit", unit: name }).format(n);
  function clockText(left) {
    if (left >= 86400) return unit(Math.floor(left / 86400), "day") + " " + unit(Math.floor((left % 86400) / 3600), "hour");
    if (left >= 3600) return unit(Math.floor(left / 3600), "hour") + " " + unit(Math.floor((left % 3600) / 60), "minute");
    return Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  }
  function tick() {
    document.querySelectorAll("time[data-deadline]").forEach((el) => {
      const left = Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
      if (Number.isNaN(left)) return;
      el.textContent = left <= 0 ? words("sayTimeUp", "time is up") : words("sayLeft", "%s left").replace("%s", clockText(left));
      el.classList.toggle("urgent", left <= URGENT_SECONDS);
    });
  }
  ["htmx:oobAfterSwap", "htmx:afterSwap", "htmx:wsAfterMessage"].forEach((name) => document.body.addEventListener(name, tick));
  setInterval(tick, 1000);
  tick();
})();
