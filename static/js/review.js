// The replay's "Show the best play" toggle: it stays open (or shut) as the replay steps,
// since each step swaps in a new one, and the B key flips it.  Loaded again with each step
// (its script tag comes with the step): the second time it only re-applies the state.
(() => {
  if (window.remiReplayBest) {
    window.remiReplayBest();
    return;
  }
  const KEY = "remi-replay-best";
  const apply = () => {
    for (const details of document.querySelectorAll("[data-replay-best]")) {
      details.open = sessionStorage.getItem(KEY) === "open";
      if (!details.dataset.bound) {
        details.dataset.bound = "1";
        details.addEventListener("toggle", () => {
          sessionStorage.setItem(KEY, details.open ? "open" : "shut");
        });
      }
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
