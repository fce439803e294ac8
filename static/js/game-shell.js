/* What every game's page shares; loaded before the game's own script, so its handlers run
   first. */

/* The players' chips and the status line reach a socket alike for every viewer
   (games/play/page_parts.py): the page marks its own seat ("you", "Your turn") and places each
   chip around the table as seen from that seat, as the server does on a page it draws
   (games/presenters/seat_names.py). */
(function () {
  "use strict";

  const FAR_SIDE = ["top-left", "top", "top-right"];
  function seatPlace(seat, viewer, players) {
    const after = (((seat - viewer) % players) + players) % players;
    if (after === 0) return "bottom";
    if (players === 2) return "top";
    if (after === 1) return "left";
    if (after === players - 1) return "right";
    const far = { 1: ["top"], 2: ["top-left", "top-right"] }[players - 3] || FAR_SIDE;
    return far[after - 2];
  }

  // The page's own seat, which only the page's first render writes (null: a spectator).
  function viewerSeat() {
    const board = document.querySelector("#game .game-board");
    return !board || board.dataset.you === undefined ? null : Number(board.dataset.you);
  }

  function markChips(part) {
    if (!part.closest(".game-board")) return;
    const you = viewerSeat();
    const chips = part.querySelectorAll(".player[data-seat]");
    for (const chip of chips) {
      const seat = Number(chip.dataset.seat);
      for (const name of Array.from(chip.classList)) if (name.startsWith("seat-")) chip.classList.remove(name);
      chip.classList.add("seat-" + seatPlace(seat, you === null ? 0 : you, chips.length));
      chip.classList.toggle("is-you", seat === you);
      const mark = chip.querySelector(".you-mark");
      if (mark) mark.hidden = seat !== you;
    }
  }

  // The status line comes the same way: of its sentences for one seat ("Your turn", "You are
  // on vacation") and for the others, the page keeps those that are its own, as a page the
  // server draws has them, and marks its own seat's clock.
  function markStatus(part) {
    const you = viewerSeat();
    for (const line of part.querySelectorAll("[data-only-seat]")) {
      if (Number(line.dataset.onlySeat) === you) line.hidden = false;
      else line.remove();
    }
    for (const line of part.querySelectorAll("[data-not-seat]")) {
      if (Number(line.dataset.notSeat) === you) line.remove();
    }
    for (const clock of part.querySelectorAll(".seat-clock[data-seat]")) {
      clock.classList.toggle("is-you", Number(clock.dataset.seat) === you);
    }
  }

  // Before anything else reads the chips or the status, and before the page is painted again.
  document.body.addEventListener("htmx:oobAfterSwap", (event) => {
    const part = event.detail.target && document.getElementById(event.detail.target.id);
    if (part && part.id === "game-players") markChips(part);
    if (part && part.id === "game-status") markStatus(part);
  });
})();

/* A redraw (a draft's answer, a socket push) that replaces the piece under a mouse between
   press and release makes Chromium send no click: the tap is finished on the redrawn piece
   when it is the same control (kind, data, label).  Only controls that change nothing but the
   page: a button sending a move is not, the redraw may have changed what it would do.
   Touch taps need nothing. */
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

  // Nothing was swapped: the selection is kept, and trying again is safe (moves carry a version).
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
  // A reconnected socket is sent whatever came since the page's version (games/play/consumers.py).
  document.body.addEventListener("htmx:wsOpen", () => connection(""));
  document.body.addEventListener("htmx:wsClose", (event) => {
    const closed = event.detail.event;
    const retried = !closed || RETRIED.indexOf(closed.code) >= 0;
    connection(retried ? words("sayLost", LOST) : words("sayClosed", CLOSED));
  });

  // --- The page's name ------------------------------------------------------------------------

  // Before htmx starts, so the socket opens named: a move this page made over HTTP is not
  // sent back to it (games/play/page_tabs.py).
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

  // The log is sent only its new entries (games/play/page_parts.py): keep the 40 a page draws.
  document.body.addEventListener("htmx:oobAfterSwap", (event) => {
    const list = event.detail.target;
    if (list.id === "game-log-list") while (list.children.length > 40) list.lastElementChild.remove();
  });

  // --- Moves over the socket ----------------------------------------------------------------

  // A move form (data-move) goes over the open socket, by HTTP while it is down (not ws-send:
  // it binds the form twice and queues moves while the socket is down).
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

  // A redraw of the controls keeps the notation box open with its text and caret; only a
  // move that went in empties it.
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

  // While SortableJS holds a tile, socket messages and answers wait (drawn at once, the drop
  // would land in replaced lists), and are drawn in order after the drop's own handlers.
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
  // "unchoose" comes with the drop; the release too, should a list be gone (not
  // "pointercancel": the browser sends it as its own drag and drop begins).
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
  // On the document: after the page scripts' own htmx:beforeSwap has decided.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!held || !detail.shouldSwap || !inGame(detail.elt)) return;
    if (detail.elt.getAttribute("hx-swap") !== "none") return;
    detail.shouldSwap = false;
    heldNews.push({ answer: { target: detail.target, html: detail.serverResponse, detail: detail } });
  });

  // --- One Tab stop per group, arrows inside ------------------------------------------------

  // Each data-roving group (row or pile, table, rack, tools, action bar) is one Tab stop, with
  // arrows, Home and End inside; "last" starts at the newest discard; hidden controls skipped.
  const ITEMS = "button:not([disabled]), input:not([disabled]):not([type='hidden']), select:not([disabled])";
  const itemsOf = (group) =>
    Array.from(group.querySelectorAll(ITEMS)).filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden");
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
      makeStop(group, items[active >= 0 ? active : group.dataset.roving === "last" ? items.length - 1 : 0]);
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

  // The browser counts a control under the dock as seen: a keyboard focus is scrolled above
  // it, whole into a sideways row, and into the viewport (a focus put back after a move does
  // not scroll); on focusin, before the browser's own scroll, and after it.
  function keepInSight(el) {
    if (!inGame(el) || !el.matches(":focus-visible")) return;
    const box = el.closest(".row-tiles, .discard-spread");
    let r = el.getBoundingClientRect();
    if (box && box.scrollWidth > box.clientWidth) {
      const b = box.getBoundingClientRect();
      box.scrollLeft += Math.min(0, r.left - b.left - 8) + Math.max(0, r.right - b.right + 8);
    }
    if (r.top < 0 || r.top >= innerHeight) scrollBy(0, r.top < 0 ? r.top - 8 : r.bottom - innerHeight + 8);
    const dock = one(".game-dock");
    if (!dock || dock.contains(el) || getComputedStyle(dock).position !== "sticky") return;
    r = el.getBoundingClientRect();
    const top = dock.getBoundingClientRect().top - 8;
    if (r.height && r.bottom > top) scrollBy(0, r.bottom - top);
  }
  document.addEventListener("focusin", (event) => {
    keepInSight(event.target);
    requestAnimationFrame(() => document.activeElement === event.target && keepInSight(event.target));
  });

  // --- Focus stays where the player was -----------------------------------------------------

  // The pressed button is redrawn (or gone, as Draw): focus the same control, else the action
  // bar's start, never the page's top.
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

  // htmx wires a swapped-in form only when the swap settles: a shortcut pressed before that
  // submitted it as a plain GET and lost the move.  The form is wired as its submit starts
  // (the chat's form, redrawn by every message, too).
  const redrawn = (el) => inGame(el) || Boolean(el.closest && el.closest("#game-chat"));
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (redrawn(form) && form.matches("[hx-post], [hx-get]")) htmx.process(form);
    },
    true,
  );
  // And the submitting button (a move's verb) is added from the submit event.
  document.body.addEventListener("htmx:configRequest", (event) => {
    const submitted = event.detail.triggeringEvent;
    const button = submitted && submitted.type === "submit" ? submitted.submitter : null;
    if (!button || !button.name || !redrawn(button)) return;
    if (!event.detail.formData.has(button.name)) event.detail.formData.set(button.name, button.value);
  });

  // --- Buttons that ask first ---------------------------------------------------------------

  // Capturing: a "no" stops the click (a shortcut's too) before the form sees it.
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

  // A part redrawn around the focus sent it to the page's top: it goes to the same control in
  // the new part, else to the rack, after the game's own script.
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

  // A piece new to its part slides in ("arrived": 250 ms, none under reduced motion); what
  // another seat's turn brought to the board keeps a ring ("last-move") until a different
  // seat moves.  A piece is known by part, face and how many alike come before it.
  const BOARD = ["game-row", "game-piles", "game-melds", "game-table", "game-players"];
  function piecesOf(part) {
    const count = {};
    return Array.from(part.querySelectorAll(".tile, .card:not(.card-back):not(.card-empty)"), (el) => {
      const face = el.dataset.tile || el.dataset.card || el.className.match(/(tile|card)-\w+|$/)[0] + el.textContent.replace(/\s/g, "");
      count[face] = (count[face] || 0) + 1;
      return [`${part.id}|${face}|${count[face]}`, el];
    });
  }
  const seats = (sel) => Array.from(document.querySelectorAll(sel), (el) => el.dataset.seat).join();
  // The viewer's seat ("" for a spectator), as the page was drawn for it.
  const yourSeat = () => (document.querySelector("#game .game-board[data-you]") || { dataset: { you: "" } }).dataset.you;
  const before = {};
  let moved = null;
  let marked = { by: null, keys: new Set() };
  // A page drawn by the server (a reload) names what the last turn brought ("last-turn") and
  // whose it was (data-last-by on its part): ringed as above when that seat is not yours.
  (function fromServer() {
    const you = yourSeat();
    for (const id of BOARD) {
      const part = document.getElementById(id);
      const by = part && part.dataset.lastBy;
      if (!by || by === you || (marked.by !== null && marked.by !== by)) continue;
      marked.by = by;
      for (const [key, el] of piecesOf(part)) {
        if (!el.classList.contains("last-turn")) continue;
        marked.keys.add(key);
        el.classList.add("last-move");
      }
    }
  })();
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    const target = event.detail.target;
    if (!target || !inGame(target)) return;
    if (target.id === "game-status") moved = [target.dataset.version, seats("#game-players .is-turn")];
    else if (BOARD.includes(target.id) || target.id === "game-rack") before[target.id] = new Set(piecesOf(target).map(([key]) => key));
  });
  document.body.addEventListener("htmx:oobAfterSwap", (event) => {
    const id = event.detail.target && event.detail.target.id;
    const part = id && document.getElementById(id);
    if (!part) return;
    const drop = (name) => document.querySelectorAll("#game ." + name).forEach((el) => el.classList.remove(name));
    if (id === "game-status" && moved && part.dataset.version !== moved[0]) {
      drop("arrived");
      if (moved[1] !== marked.by) {
        marked = { by: moved[1], keys: new Set() };
        drop("last-move");
      }
    }
    const known = before[id];
    if (!known) return;
    delete before[id];
    const you = yourSeat();
    const mine = you !== "" && marked.by === you;
    for (const [key, el] of piecesOf(part)) {
      if (!known.has(key)) {
        el.classList.add("arrived");
        if (BOARD.includes(id) && !mine) marked.keys.add(key);
      }
      if (marked.keys.has(key)) el.classList.add("last-move");
    }
  });

  // --- The move clocks ----------------------------------------------------------------------

  // m:ss under an hour, else hours and minutes or days and hours; the last seconds urgent.
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
