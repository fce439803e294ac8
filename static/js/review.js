// The replay's "Show the best play" toggle: it stays open (or shut) as the replay steps,
// since each step swaps in a new one, and the B key flips it.  Loaded again with each step
// (its script tag comes with the step): the second time it only re-applies the state.
(() => {
  if (window.remiReplayBest) {
    window.remiReplayBest();
    return;
  }
  const KEY = "remi-replay-best";
  // Only a toggle just swapped in takes the kept state: the one on the page is as the player
  // left it (its "toggle" event comes a moment after a tap, so an answer settling in between
  // would read the old state and shut what was just opened).  The kept state only ever opens:
  // a toggle arrives shut, and a tap can land on it before this script has run (its tag comes
  // after the toggle), so shutting here would undo that tap; an open that no listener heard is
  // kept instead.
  const apply = () => {
    for (const details of document.querySelectorAll("[data-replay-best]")) {
      if (details.dataset.bound) continue;
      details.dataset.bound = "1";
      if (sessionStorage.getItem(KEY) === "open") details.open = true;
      else if (details.open) sessionStorage.setItem(KEY, "open");
      details.addEventListener("toggle", () => {
        sessionStorage.setItem(KEY, details.open ? "open" : "shut");
      });
    }
  };
  window.remiReplayBest = apply;
  document.addEventListener("htmx:afterSettle", apply);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "b" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const details = document.querySelector("[data-replay-best]");
    if (!details) return;
    details.open = !details.open;
    details.querySelector("summary").focus();
  });
  apply();
})();
