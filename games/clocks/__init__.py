"""Clocks and deadlines: each seat's clock, and what a committed move hands to the workers.
Below the move path: told of moves through ``work_queue``, never importing ``games.play``."""
