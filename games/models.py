"""Game persistence (tables, seats, games, action log) arrives with the lobby issue."""

from __future__ import annotations
