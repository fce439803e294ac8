"""Tables and the lobby: a table's life from creation to its last game (``lifecycle``), the
lobby's pages, form and lists, and the sockets that keep those lists live."""
