/* Thai Rummy's page (with the card rummies' shared script, basic-rummy.js).  Taking from the
   discard pile takes the deepest card picked and every card above it: this script marks the
   cards that would come along, so the player sees the whole pickup before sending it. */
(() => {
  "use strict";

  function markPickup() {
    const boxes = Array.from(document.querySelectorAll(".pile-card input"));
    const deepest = boxes.findIndex((box) => box.checked);
    boxes.forEach((box, at) => {
      box.closest(".pile-card").classList.toggle("comes-along", deepest >= 0 && at > deepest && !box.checked);
    });
  }

  document.addEventListener("change", (event) => {
    if (event.target.matches && event.target.matches(".pile-card input")) markPickup();
  });
  document.addEventListener("cards:repicked", markPickup);
})();
