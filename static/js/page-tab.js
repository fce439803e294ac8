// A game page names itself as it loads, so the server can tell it from the player's other
// tabs: the name goes with the page's moves (a header) and with its socket, which then skips
// the moves this page made and was already answered with (games/page_tabs.py).  Runs before
// htmx starts (both are deferred; htmx waits for DOMContentLoaded), so the socket opens named.
(function () {
  "use strict";
  const bytes = new Uint8Array(12);
  document.querySelectorAll("[data-page-tab][ws-connect]").forEach(function (element) {
    crypto.getRandomValues(bytes);
    const name = Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
    element.setAttribute("ws-connect", element.getAttribute("ws-connect") + "&tab=" + name);
    element.setAttribute("hx-headers", JSON.stringify({ "X-Remi-Tab": name }));
  });
})();
