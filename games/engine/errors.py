"""The refusals, kept importable here; they live in :mod:`games.engine.core.errors`, shared
by every game."""

from __future__ import annotations

from .core.errors import (
    IllegalAction,
    InvalidAction,
    InvalidMeld,
    NotYourTurn,
    Refusal,
    UnknownGame,
)

__all__ = ["IllegalAction", "InvalidAction", "InvalidMeld", "NotYourTurn", "Refusal", "UnknownGame"]
