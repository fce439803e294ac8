/* The main menu folds behind a "Menu" button on a narrow screen.  Without this script the
   menu simply stays open, so every link is reachable either way. */
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

  nav.classList.add("has-menu");
  toggle.hidden = false;
  toggle.addEventListener("click", () => show(toggle.getAttribute("aria-expanded") !== "true"));
  nav.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.classList.contains("open")) {
      show(false);
      toggle.focus();
    }
  });
})();
