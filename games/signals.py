"""What the games app tells other apps, without knowing them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by services.play inside the transaction whose move ends a game, with ``game`` (the
# saved Game, scores set) and ``seats`` (position -> Seat).  A receiver's writes commit or
# roll back with the move; a receiver that raises refuses the move.
game_finished = Signal()
