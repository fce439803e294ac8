/* The game page and the replay page: selecting tiles, keyboard shortcuts, arranging the rack,
   the move clock.  Plain script, no build step; htmx does all the talking to the server. */
(function () {
  "use strict";

  // The selection outlives the server redrawing the rack and the table (after every move,
  // over the socket or as an answer): it is kept here and put back on the new elements.
  let selection = []; // entries {code, el} for rack tiles, {bar: true} between two melds
  let meld = null; // id of the selected table meld, as a string
  let row = null; // index of the selected discard-row tile, as a string
  let rackFocus = null; // index of the focused rack tile while the rack is being redrawn
  // The order the player last gave their rack.  A redraw that arrives before the server has
  // saved it would show the old order, so the new rack is put in this order too (the same
  // rule as the server's: these tiles first, tiles that came since at the end).
  let localOrder = null;

  const all = (selector, root) => Array.from((root || document).querySelectorAll(selector));
  const one = (selector, root) => (root || document).querySelector(selector);
  const rackTiles = () => all("#game-rack .rack-tile");
  // The page's words come from the template, in the viewer's language.
  const spoken = (name, fallback) => {
    const game = document.getElementById("game");
    return (game && game.dataset[name]) || fallback;
  };

  // --- Selection --------------------------------------------------------------------------

  function selectionText() {
    const words = [];
    for (const entry of selection) {
      if (entry.bar) {
        if (words.length && words[words.length - 1] !== "|") words.push("|");
      } else {
        words.push(entry.code);
      }
    }
    while (words.length && words[words.length - 1] === "|") words.pop();
    return words.join(" ");
  }

  function showSelection() {
    const used = new Set();
    const tiles = rackTiles();
    const kept = [];
    for (const entry of selection) {
      if (entry.bar) {
        kept.push(entry);
        continue;
      }
      // A tile redrawn by the server is a new element: take any unused copy of the same tile.
      let el = entry.el && entry.el.isConnected && !used.has(entry.el) ? entry.el : null;
      if (!el) el = tiles.find((t) => !used.has(t) && t.dataset.tile === entry.code) || null;
      if (el) {
        used.add(el);
        kept.push({ code: entry.code, el: el });
      }
    }
    selection = kept;
    tiles.forEach((t) => t.setAttribute("aria-pressed", used.has(t) ? "true" : "false"));

    const melds = all("#game-melds .meld");
    if (meld !== null && !melds.some((m) => m.dataset.meld === meld)) meld = null;
    melds.forEach((m) => m.setAttribute("aria-pressed", m.dataset.meld === meld ? "true" : "false"));
    const rowTiles = all("#game-row .row-tile");
    if (row !== null && !rowTiles.some((t) => t.dataset.row === row)) row = null;
    rowTiles.forEach((t) => t.setAttribute("aria-pressed", t.dataset.row === row ? "true" : "false"));
    // A row tile tapped when Pick cannot be played: the page says why (the server words it).
    const rowHint = one("#row-hint");
    if (rowHint) rowHint.hidden = row === null;

    const out = one("#game-selection");
    if (out) {
      const parts = [];
      const tiles = selectionText();
      if (tiles) parts.push(tiles);
      if (meld !== null) parts.push(spoken("sayMeld", "meld #%s").replace("%s", meld));
      if (row !== null) parts.push(spoken("sayRow", "row tile %s").replace("%s", row));
      out.textContent = parts.length ? parts.join(", ") : spoken("sayNothing", "nothing");
    }
    countFirstMelds(selectionText());
  }

  // What the selection is worth toward the first melds ("First melds: 45 / 50"): the engine
  // counts it on the server, a moment after the selection stops changing.
  let countTimer = null;
  function countFirstMelds(text) {
    const total = one("#meld-total");
    clearTimeout(countTimer);
    if (!total || total.hidden || (total.dataset.tiles || "") === text) return;
    countTimer = setTimeout(() => {
      const url = total.dataset.url + "?tiles=" + encodeURIComponent(text);
      htmx.ajax("GET", url, { target: "#meld-total", swap: "outerHTML" });
    }, 120);
  }

  function clearSelection() {
    selection = [];
    meld = null;
    row = null;
    showSelection();
  }

  // What the last move request carried. The socket often shows a move before its answer
  // arrives, so a player may already be picking for the next one: only what was sent is
  // used up when the answer says the move went in.
  let sent = null;

  function clearSent() {
    if (!sent) {
      clearSelection();
      return;
    }
    const left = sent.codes.slice();
    const gone = [];
    const kept = selection.filter((entry) => {
      if (entry.bar) return true;
      const at = left.indexOf(entry.code);
      if (at < 0) return true;
      left.splice(at, 1);
      gone.push(entry.el);
      return false;
    });
    // Gone as themselves: by code, a twin left in the rack would take the played one's place.
    const tiles = rackTiles();
    if (localOrder && localOrder.join() === tiles.map((t) => t.dataset.tile).join()) {
      localOrder = localOrder.filter((_, i) => !gone.includes(tiles[i]));
    }
    selection = kept.some((entry) => !entry.bar) ? kept : [];
    if (meld === sent.meld) meld = null;
    if (row === sent.row) row = null;
    sent = null;
    showSelection();
  }

  function toggleTile(el) {
    const at = selection.findIndex((e) => e.el === el);
    if (at >= 0) selection.splice(at, 1);
    else selection.push({ code: el.dataset.tile, el: el });
    showSelection();
  }

  function newGroup() {
    if (selection.length && !selection[selection.length - 1].bar) selection.push({ bar: true });
    showSelection();
  }

  // --- Arranging the rack -------------------------------------------------------------------

  function saveOrder() {
    localOrder = rackTiles().map((t) => t.dataset.tile);
    // Posted a moment later, after whatever waited for the drop is drawn (game-shell.js): the
    // player's own move may have changed the rack meanwhile, and the server keeps only an
    // order of the tiles held now.  keepLocalOrder has then put those in the player's order.
    setTimeout(postOrder, 0);
  }

  function postOrder() {
    const form = one("#rack-form");
    const tiles = rackTiles();
    if (!form || !tiles.length) return;
    form.querySelector("input[name=order]").value = tiles.map((t) => t.dataset.tile).join(" ");
    // A form a swap has just brought is wired by htmx only when the swap settles: wire it now,
    // or the event is lost and the new order with it.
    htmx.process(form);
    htmx.trigger(form, "arrange-rack");
  }

  function keepLocalOrder() {
    const tiles = rackTiles();
    if (!localOrder || !tiles.length) return;
    const left = tiles.slice();
    const ordered = [];
    for (const code of localOrder) {
      const at = left.findIndex((t) => t.dataset.tile === code);
      if (at >= 0) ordered.push(left.splice(at, 1)[0]);
    }
    const parent = tiles[0].parentNode;
    ordered.concat(left).forEach((t) => parent.appendChild(t));
  }

  function focusTile(tiles, index) {
    if (!tiles.length) return;
    const i = Math.max(0, Math.min(tiles.length - 1, index));
    tiles.forEach((t, k) => (t.tabIndex = k === i ? 0 : -1));
    tiles[i].focus();
  }

  function moveTile(el, step) {
    const tiles = rackTiles();
    const i = tiles.indexOf(el);
    const j = i + step;
    if (i < 0 || j < 0 || j >= tiles.length) return;
    if (step < 0) el.parentNode.insertBefore(el, tiles[j]);
    else el.parentNode.insertBefore(el, tiles[j].nextSibling);
    focusTile(rackTiles(), j);
    saveOrder();
  }

  const COLOURS = "RYBK";
  function tileKey(code, byNumber) {
    if (code === "J") return [99, 99];
    const colour = COLOURS.indexOf(code[0]);
    const number = parseInt(code.slice(1), 10);
    return byNumber ? [number, colour] : [colour, number];
  }

  function sortRack(byNumber) {
    const tiles = rackTiles();
    if (!tiles.length) return;
    const parent = tiles[0].parentNode;
    tiles
      .slice()
      .sort((a, b) => {
        const ka = tileKey(a.dataset.tile, byNumber);
        const kb = tileKey(b.dataset.tile, byNumber);
        return ka[0] - kb[0] || ka[1] - kb[1];
      })
      .forEach((t) => parent.appendChild(t));
    saveOrder();
  }

  // --- Clicks -------------------------------------------------------------------------------

  document.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target) return;
    if (target.matches("#game-rack .rack-tile")) {
      toggleTile(target);
    } else if (target.matches("#game-melds .meld")) {
      meld = meld === target.dataset.meld ? null : target.dataset.meld;
      showSelection();
    } else if (target.matches("#game-row .row-tile")) {
      row = row === target.dataset.row ? null : target.dataset.row;
      showSelection();
    } else if (target.dataset.select === "group") {
      newGroup();
    } else if (target.dataset.select === "clear") {
      clearSelection();
    } else if (target.dataset.rack) {
      const focused = rackTiles().find((t) => t.tabIndex === 0);
      if (target.dataset.rack === "left" && focused) moveTile(focused, -1);
      else if (target.dataset.rack === "right" && focused) moveTile(focused, 1);
      else if (target.dataset.rack === "sort-colour") sortRack(false);
      else if (target.dataset.rack === "sort-number") sortRack(true);
    }
  });

  // Clicking a tile moves the roving focus there too, so the arrow buttons move that tile.
  document.addEventListener("focusin", (event) => {
    if (event.target.matches && event.target.matches("#game-rack .rack-tile")) {
      rackTiles().forEach((t) => (t.tabIndex = t === event.target ? 0 : -1));
    }
  });

  // --- Keyboard -----------------------------------------------------------------------------

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea")) return;

    if (target.matches && target.matches("#game-rack .rack-tile")) {
      const tiles = rackTiles();
      const i = tiles.indexOf(target);
      const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
      if (step) {
        event.preventDefault();
        if (event.shiftKey) moveTile(target, step);
        else focusTile(tiles, i + step);
        return;
      }
      if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        focusTile(tiles, event.key === "Home" ? 0 : tiles.length - 1);
        return;
      }
    }

    if (event.key === "Escape") {
      clearSelection();
      return;
    }

    // The replay: arrows step through the moves.
    const replayButton = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    if (replayButton) {
      const button = one('#replay-step [data-replay="' + replayButton + '"]');
      if (button && !button.disabled) {
        event.preventDefault();
        button.click();
      }
      return;
    }

    if (event.key.length !== 1 || event.shiftKey) return;
    const button = one('#game-controls [data-key="' + event.key.toLowerCase() + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // --- Drag and drop (SortableJS: mouse and touch alike) -----------------------------------

  // Dragging along the rack arranges it; a tile dragged out of it onto the selection line
  // joins the move being composed, onto a table meld picks that meld as well (then Add). The
  // tile never leaves the rack: a drop changes the selection, as tapping would.
  const DRAG_GROUP = "remi-tiles";

  function dropped(event, target) {
    const tile = event.item;
    if (event.clone && event.clone.parentNode) event.clone.parentNode.replaceChild(tile, event.clone);
    if (target.dataset.meld !== undefined) meld = target.dataset.meld;
    if (!selection.some((entry) => entry.el === tile)) toggleTile(tile);
    else showSelection();
  }

  function attachDrag() {
    if (!window.Sortable) return;
    const rack = one("#game-rack .rack");
    if (rack && !rack.remiSortable) {
      rack.remiSortable = window.Sortable.create(rack, {
        group: { name: DRAG_GROUP, pull: "clone", put: false },
        draggable: ".rack-tile",
        animation: 120,
        // On a touch screen a drag starts after a short hold, so a tap still selects.
        delay: 150,
        delayOnTouchOnly: true,
        ghostClass: "dragging",
        onEnd: (event) => {
          if (event.from === event.to && event.oldIndex !== event.newIndex) saveOrder();
        },
      });
    }
    [one("#game-compose")].concat(all("#game-melds .meld")).forEach((target) => {
      if (!target || target.remiSortable) return;
      target.remiSortable = window.Sortable.create(target, {
        group: { name: DRAG_GROUP, pull: false, put: true },
        sort: false,
        draggable: ".drag-never", // the target's own contents stay put
        onAdd: (event) => dropped(event, target),
      });
    });
  }

  // --- htmx ---------------------------------------------------------------------------------

  // The action form sends the selection with whichever button was pressed.
  document.body.addEventListener("htmx:configRequest", (event) => {
    const id = event.detail.elt.id;
    if (id !== "action-form") {
      // Another move (typed notation, a button of its own) uses the whole selection up.
      if (id !== "rack-form" && event.detail.elt.closest("#game")) sent = null;
      return;
    }
    const data = event.detail.formData;
    data.set("tiles", selectionText());
    if (meld !== null) data.set("meld", meld);
    if (row !== null) data.set("row", row);
    sent = { codes: selection.filter((e) => !e.bar).map((e) => e.code), meld: meld, row: row };
  });

  // A 400 (form data the server could not read) or 403 still carries a message for the
  // error area; htmx leaves error statuses unswapped unless told otherwise.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    // A count for a selection since changed (a quick meld clears it) is dropped.
    if (event.detail.target && event.detail.target.id === "meld-total") {
      const asked = /data-tiles="([^"]*)"/.exec(event.detail.serverResponse);
      if (asked && asked[1] !== selectionText()) event.detail.shouldSwap = false;
    }
    const status = event.detail.xhr.status;
    if ((status === 400 || status === 403) && event.detail.elt.closest("#game")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "game-rack") {
      const active = document.activeElement;
      rackFocus = active && active.matches(".rack-tile") ? rackTiles().indexOf(active) : null;
    }
  });

  // On a phone the discard row is one line that scrolls sideways (site.css): when a tile joins
  // or leaves it, the newest discard is brought into sight; a player who scrolled back to an
  // older tile is left there while nothing in the row changes.
  let rowLength = null;
  function showNewestDiscard() {
    const row = document.querySelector("#game-row .row-tiles");
    const length = row ? row.children.length : null;
    if (row && length !== rowLength && row.scrollWidth > row.clientWidth) {
      row.scrollLeft = row.scrollWidth;
    }
    rowLength = length;
  }

  function afterSwap() {
    showNewestDiscard();
    keepLocalOrder();
    attachDrag();
    showSelection();
    if (rackFocus !== null && !document.activeElement.matches(".rack-tile")) {
      focusTile(rackTiles(), rackFocus);
    }
    rackFocus = null;
  }
  document.body.addEventListener("htmx:oobAfterSwap", afterSwap);
  document.body.addEventListener("htmx:wsAfterMessage", afterSwap);
  document.body.addEventListener("htmx:afterSwap", afterSwap);

  // The server says the move went in: what it carried was used up.
  document.body.addEventListener("remi:acted", clearSent);

  // Failed requests, the socket's state and the typed move: static/js/game-shell.js.

  // The move clocks: static/js/game-shell.js.

  showSelection();
  attachDrag();
  showNewestDiscard();
})();
