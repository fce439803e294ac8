"""The ways an engine refuses, shared by every game.  All are ``ValueError`` so callers may
catch one.

Engines speak in data: a refusal is a stable ``code`` and JSON-ready ``params``, never a
sentence.  The presentation layer words it for the player, in the player's language
(``Presentation.message_for``); ``str()`` names the code and parameters, for logs.
"""

from __future__ import annotations

from typing import Any


class Refusal(ValueError):
    """A code and its parameters, e.g. ``first-meld-too-low`` with ``points=25, needed=50``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def as_data(self) -> dict[str, Any]:
        """The refusal as one JSON-ready mapping: ``{"code": ..., **params}``."""
        return {"code": self.code, **self.params}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a Celery result, a worker's log record) and rebuilt whatever the subclass's
        # own signature is.
        return (_restore, (type(self), self.code, self.params))

    def __str__(self) -> str:
        if not self.params:
            return self.code
        shown = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.code} ({shown})"


class InvalidAction(Refusal):
    """The action is malformed: bad notation, an unknown tile or meld number."""


class IllegalAction(Refusal):
    """The action is well formed but breaks a rule."""


class NotYourTurn(IllegalAction):
    """Code ``not-your-turn``; ``turn`` is the seat whose turn it is, when one is."""

    def __init__(self, turn: int | None = None) -> None:
        if turn is None:
            super().__init__("not-your-turn")
        else:
            super().__init__("not-your-turn", turn=turn)


class InvalidMeld(Refusal):
    """Tiles that do not form a set or run: a code saying why, with parameters."""


def _restore(cls: type[Refusal], code: str, params: dict[str, Any]) -> Refusal:
    refusal = cls.__new__(cls)
    Refusal.__init__(refusal, code, **params)
    return refusal


class UnknownGame(ValueError):
    """A game key that is not in the registry (``games.engine.GAMES``); a programming error,
    so it keeps an ordinary message."""

    def __init__(self, key: object, known: list[str]) -> None:
        super().__init__(f"Unknown game {key!r}; the registered games are {', '.join(known)}.")
        self.key = key
