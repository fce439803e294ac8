/* Pocket Rummy's page script, kept in the plug-in's own static folder (the site finds it
   there, as it finds the plug-in's templates).  A tile in the hand is a radio button, so
   discarding works without it; with it, a double-click (or double tap) on a tile discards
   that tile at once.  The page's shared behaviour is game-shell.js, loaded first. */
(() => {
  "use strict";
  document.addEventListener("dblclick", (event) => {
    const tile = event.target.closest && event.target.closest("#game-rack label.tile");
    const form = document.getElementById("action-form");
    const discard = document.getElementById("discard-button");
    if (!tile || !form || !discard) return;
    const radio = tile.querySelector("input[type=radio]");
    if (!radio || radio.disabled) return;
    radio.checked = true;
    form.requestSubmit(discard);
  });
})();
