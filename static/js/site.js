/* Every page's own small scripts, one file for a phone's sake.
   The server closed this page's socket with 4429 (too many of this browser's sockets open,
   remi_site/socket_limits.py): say so; the ws extension does not retry that code. */
(function () {
  "use strict";
  const TOO_MANY_SOCKETS = 4429;
  document.addEventListener("htmx:wsClose", function (event) {
    const closed = event.detail && event.detail.event;
    if (!closed || closed.code !== TOO_MANY_SOCKETS) return;
    const note = document.getElementById("socket-limit");
    if (note) note.hidden = false;
  });
})();

/* The main menu folds behind a "Menu" button on a narrow screen, from the first paint (the
   page is served folded; css/no-script.css keeps it open where scripts do not run). */
(() => {
  "use strict";
  const nav = document.querySelector(".site-nav");
  const toggle = nav && nav.querySelector(".menu-toggle");
  const menu = document.getElementById("site-menu");
  if (!toggle || !menu) return;

  function show(open) {
    toggle.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("open", open);
  }

  toggle.addEventListener("click", () => show(toggle.getAttribute("aria-expanded") !== "true"));
  nav.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.classList.contains("open")) {
      show(false);
      toggle.focus();
    }
  });
})();
