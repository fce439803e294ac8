/* Every page with a live part: when the server refuses this page a socket because the
   browser holds too many already (remi_site/socket_limits.py, close code 4429), the page says
   so, instead of a live part that stops updating with no word of why.  The htmx ws extension
   does not try again after that code, so nothing spins meanwhile. */
(function () {
  "use strict";
  // remi_site.socket_limits.TOO_MANY_SOCKETS_CLOSE_CODE
  const TOO_MANY_SOCKETS = 4429;
  document.addEventListener("htmx:wsClose", function (event) {
    const closed = event.detail && event.detail.event;
    if (!closed || closed.code !== TOO_MANY_SOCKETS) return;
    const note = document.getElementById("socket-limit");
    if (note) note.hidden = false;
  });
})();
