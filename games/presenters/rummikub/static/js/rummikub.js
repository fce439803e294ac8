/* The tile rummy's game page and replay: composing a turn on the private draft, the move
   clock, the replay keys.  Plain script, no build step; htmx does the talking.

   The draft is the server's (kept on the player's own seat and judged there): this script
   only moves tile elements for an immediate answer, then posts the whole arrangement, read
   back from the page, and the server's answer redraws the table, the rack and the controls.
   Every move works the same by tap, click or keyboard (pick a tile, then where it goes) and
   by dragging, with a mouse or a finger. */
(function () {
  "use strict";

  const all = (selector, root) => Array.from((root || document).querySelectorAll(selector));
  const one = (selector, root) => (root || document).querySelector(selector);

  let picked = null; // the picked tile element
  // Where the picked tile was, so a redraw from the server can pick the same tile again.
  let pickedAt = null; // {meld: index or -1 for the rack, pos, code}

  const drafting = () => Boolean(one("#draft-form"));
  const meldOf = (el) => el && el.closest(".draft-meld");
  const meldList = () => one("#draft-melds");
  const rackRow = () => one("#game-rack .rack");

  // The page's sentences come from the template, in the viewer's language.
  const words = (name) => (one("#game") ? one("#game").dataset[name] || "" : "");

  function say(text) {
    const note = one("#game-error");
    if (note) {
      note.textContent = text;
      note.classList.toggle("game-notice", Boolean(text));
    }
  }

  // --- Picking ------------------------------------------------------------------------------

  function locate(el) {
    const meld = meldOf(el);
    const siblings = all(".draft-tile", meld || rackRow());
    const melds = all("#draft-melds .draft-meld");
    return { meld: meld ? melds.indexOf(meld) : -1, pos: siblings.indexOf(el), code: el.dataset.tile };
  }

  function pick(el) {
    if (picked) picked.setAttribute("aria-pressed", "false");
    picked = el;
    pickedAt = el ? locate(el) : null;
    if (el) {
      el.setAttribute("aria-pressed", "true");
      say("");
    }
    showTools();
  }

  // The draft's tools show only where they can act on the picked tile (site.css): "Put here"
  // once a tile is picked, "Split" on its own meld, "Join here" on the others and "Back to the
  // rack" for a tile from the table.  With nothing picked the melds carry no buttons, and a
  // keyboard's Tab passes no tool that could only answer "pick a tile first".  While a tile is
  // held they stay as they were: the drop decides, and the answer redraws them.
  function showTools() {
    if (holding) return;
    const from = picked ? (meldOf(picked) ? "table" : "rack") : "";
    if (from) document.body.dataset.picked = from;
    else delete document.body.dataset.picked;
    all("#draft-melds .draft-meld").forEach((meld) => {
      meld.classList.toggle("holds-pick", Boolean(picked) && meldOf(picked) === meld);
    });
  }

  function repick() {
    if (!pickedAt || !drafting()) {
      picked = null;
      pickedAt = null;
      return;
    }
    const melds = all("#draft-melds .draft-meld");
    const box = pickedAt.meld < 0 ? rackRow() : melds[pickedAt.meld];
    const tiles = box ? all(".draft-tile", box) : [];
    // The server may order the redrawn rack or meld differently: same place first, else the
    // same tile elsewhere in the same box.
    const same = tiles[pickedAt.pos];
    const el =
      same && same.dataset.tile === pickedAt.code
        ? same
        : tiles.find((t) => t.dataset.tile === pickedAt.code);
    picked = null;
    if (el) pick(el);
    else pickedAt = null;
  }

  // --- Changing the draft -------------------------------------------------------------------

  function arrangement() {
    const melds = all("#draft-melds .draft-meld")
      .map((m) => all(".draft-tile", m).map((t) => t.dataset.tile))
      .filter((m) => m.length);
    const rack = all(".draft-tile", rackRow() || undefined).map((t) => t.dataset.tile);
    return { table: melds.map((m) => m.join(" ")).join(" | "), rack: rack.join(" ") };
  }

  // One draft request at a time, and the last arrangement always reaches the server: a change
  // made while a request is out waits for its answer and is then sent whole.  The answer to a
  // request that a newer change has overtaken is not drawn (it would put tiles back where they
  // were a moment ago); the newer request's answer will be.
  let draftOut = false;
  let draftAgain = null; // null, or {reset} for a change waiting to be sent
  // A tile is held (SortableJS chose it): an answer drawn now would replace the lists under
  // the finger, and the drop would land a detached tile in the new ones (a tile twice).  The
  // answer waits; the drop sends the whole arrangement, or, dropped in place, asks again.
  let holding = false;
  let drawOwed = false;

  function post(reset) {
    const form = one("#draft-form");
    if (!form) {
      draftOut = false;
      draftAgain = null;
      return;
    }
    const now = arrangement();
    form.elements.table.value = now.table;
    form.elements.rack.value = now.rack;
    form.elements.reset.value = reset ? "on" : "";
    draftOut = true;
    drawOwed = false; // this request's answer (or a newer one's) will be drawn
    // The form may have come with a swap that has not settled: htmx wires it only then, and
    // an event fired before would be lost, leaving draftOut set and every later change unsent.
    htmx.process(form);
    htmx.trigger(form, "draft-changed");
  }

  function send(reset) {
    pick(null);
    if (draftOut) {
      draftAgain = { reset: Boolean(reset) || Boolean(draftAgain && draftAgain.reset) };
      return;
    }
    post(reset);
  }

  // The draft request's answer (or failure): send what waited, and say whether to draw it.
  function draftAnswered() {
    draftOut = false;
    if (!draftAgain) return true;
    const waiting = draftAgain;
    draftAgain = null;
    post(waiting.reset);
    return false;
  }

  const isDraftRequest = (event) => event.detail.elt && event.detail.elt.id === "draft-form";

  function tileBox(meld) {
    // A meld's tiles come before its state note and tools.
    return meld.querySelector(".meld-state");
  }

  function putInMeld(tile, meld, before) {
    meld.insertBefore(tile, before || tileBox(meld));
  }

  function newMeld() {
    const li = document.createElement("li");
    li.className = "meld draft-meld";
    const state = document.createElement("span");
    state.className = "meld-state";
    li.appendChild(state);
    const last = meldList().lastElementChild; // the "New meld" item
    meldList().insertBefore(li, last);
    attachDrag(); // a tile may be dragged onto it before the server's answer redraws it
    return li;
  }

  function moveTo(target) {
    if (!picked) {
      say(words("sayPick"));
      return;
    }
    const tile = picked;
    const drop = target.closest("[data-drop]");
    if (target.classList.contains("draft-tile")) {
      const meld = meldOf(target);
      if (meld) putInMeld(tile, meld, target);
      else rackRow().insertBefore(tile, target);
    } else if (drop && drop.dataset.drop === "meld") {
      putInMeld(tile, meldOf(drop));
    } else if (drop && drop.dataset.drop === "new") {
      putInMeld(tile, newMeld());
    } else if (drop && drop.dataset.drop === "rack") {
      rackRow().appendChild(tile);
    } else {
      return;
    }
    send(false);
  }

  function split(meld) {
    if (!picked || meldOf(picked) !== meld) {
      say(words("saySplit"));
      return;
    }
    const tiles = all(".draft-tile", meld);
    const from = tiles.indexOf(picked);
    if (from <= 0) {
      say(words("saySplitFirst"));
      return;
    }
    const fresh = newMeld();
    meld.parentNode.insertBefore(fresh, meld.nextSibling);
    tiles.slice(from).forEach((t) => putInMeld(t, fresh));
    send(false);
  }

  function join(meld) {
    const from = picked && meldOf(picked);
    if (!from || from === meld) {
      say(words("sayJoin"));
      return;
    }
    all(".draft-tile", from).forEach((t) => putInMeld(t, meld));
    send(false);
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !target.closest("#game") || !drafting()) return;
    if (target.dataset.draft === "reset") {
      send(true);
    } else if (target.hasAttribute("data-split")) {
      split(meldOf(target));
    } else if (target.hasAttribute("data-join")) {
      join(meldOf(target));
    } else if (target.dataset.drop) {
      moveTo(target);
    } else if (target.classList.contains("draft-tile")) {
      if (target === picked) pick(null);
      else if (picked) moveTo(target);
      else pick(target);
    }
  });

  // --- Dragging (SortableJS: mouse and touch alike) -----------------------------------------

  // Tiles are dragged between the rack and the melds, within them to reorder, and onto "New
  // meld"; each drop is a change of the draft, sent like a tap-tap move.  On a touch screen a
  // drag starts after a short hold, so a tap still picks.
  const DRAG = { name: "rummikub-tiles" };

  function dragOptions(extra) {
    return Object.assign(
      {
        group: DRAG,
        draggable: ".draft-tile",
        animation: 120,
        delay: 150,
        delayOnTouchOnly: true,
        ghostClass: "dragging",
        onStart: (event) => pick(event.item),
        onChoose: () => {
          holding = true;
        },
        // Fired before the drop's "add" and "end": whatever they send settles what is owed.
        onUnchoose: () => {
          holding = false;
          queueMicrotask(() => {
            if (drawOwed) send(false);
          });
        },
      },
      extra,
    );
  }

  function attachDrag() {
    if (!window.Sortable || !drafting()) return;
    [rackRow()].concat(all("#draft-melds .draft-meld")).forEach((list) => {
      if (!list || list.remiSortable) return;
      list.remiSortable = window.Sortable.create(
        list,
        dragOptions({
          onEnd: (event) => {
            if (event.from === event.to && event.oldIndex === event.newIndex) {
              pick(null);
              return;
            }
            // A tile dropped into a meld goes before its state note and tools.
            const meld = meldOf(event.item);
            if (meld && tileBox(meld) && event.item.compareDocumentPosition(tileBox(meld)) & Node.DOCUMENT_POSITION_PRECEDING) {
              putInMeld(event.item, meld);
            }
            send(false);
          },
        }),
      );
    });
    const fresh = one('#draft-melds [data-drop="new"]');
    const holder = fresh && fresh.parentNode;
    if (holder && !holder.remiSortable) {
      holder.remiSortable = window.Sortable.create(holder, {
        group: { name: DRAG.name, pull: false, put: true },
        sort: false,
        draggable: ".drag-never", // the button itself stays put
        // The list the tile came from sends the change when the drag ends.
        onAdd: (event) => putInMeld(event.item, newMeld()),
      });
    }
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && picked) {
      pick(null);
      return;
    }
    const replay = one("#replay-step");
    if (!replay || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const which = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    const button = which && one('#replay-step [data-replay="' + which + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // --- htmx ---------------------------------------------------------------------------------

  // Done sends the draft's table as one play.
  document.body.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt.id !== "action-form") return;
    event.detail.formData.set("table", arrangement().table);
  });

  // A 400 or 403 still carries a message for the error area.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (isDraftRequest(event)) {
      const draw = draftAnswered();
      if (draw && holding) drawOwed = true;
      if (!draw || holding) {
        event.detail.shouldSwap = false;
        return;
      }
    }
    const status = event.detail.xhr.status;
    if ((status === 400 || status === 403) && event.detail.elt.closest("#game")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // A draft request that got no answer at all (network down, timeout) frees the way too.
  ["htmx:sendError", "htmx:timeout", "htmx:sendAbort"].forEach((name) =>
    document.body.addEventListener(name, (event) => {
      if (isDraftRequest(event)) draftAnswered();
    }),
  );

  // A redraw replaces the element a keyboard user was on; put focus back on the same tile
  // (or the same control) so the next key press is not lost.
  let focusedAt = null;
  document.addEventListener("focusin", (event) => {
    const el = event.target;
    if (!el.closest || !el.closest("#game")) return;
    focusedAt = el.classList.contains("draft-tile")
      ? { tile: locate(el) }
      : el.id
        ? { id: el.id }
        : null;
  });

  function refocus() {
    if (!focusedAt || (document.activeElement && document.activeElement !== document.body)) return;
    let el = null;
    if (focusedAt.id) {
      el = document.getElementById(focusedAt.id);
    } else {
      const at = focusedAt.tile;
      const box = at.meld < 0 ? rackRow() : all("#draft-melds .draft-meld")[at.meld];
      el = box ? all(".draft-tile", box).find((t) => t.dataset.tile === at.code) : null;
    }
    if (el) el.focus();
  }

  function afterSwap() {
    attachDrag();
    if (picked && !picked.isConnected) repick();
    showTools();
    refocus();
  }
  document.body.addEventListener("htmx:oobAfterSwap", afterSwap);
  document.body.addEventListener("htmx:wsAfterMessage", afterSwap);
  document.body.addEventListener("htmx:afterSwap", afterSwap);

  // Failed requests, the socket's state and the typed move: static/js/game-shell.js.

  // The move clocks: static/js/game-shell.js.

  attachDrag();
})();
