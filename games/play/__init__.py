"""The move path and the live game page: one service every move takes (``services.play``),
its two doors (the page's socket in ``consumers``, the ``act`` view in ``views``) and the
timeouts' runner, and what each viewer is sent after a move (shared snapshots, parts
rendered once, only what changed)."""
