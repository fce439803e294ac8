/* The server closed this page's socket with 4429 (too many of this browser's sockets open,
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
