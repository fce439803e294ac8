"""The three ways an action can be refused.  All are ``ValueError`` so callers may catch one."""

from __future__ import annotations


class InvalidAction(ValueError):
    """The action is malformed: bad notation, an unknown tile or meld number."""


class IllegalAction(ValueError):
    """The action is well formed but breaks a rule.

    ``code`` is stable (tests and the UI key on it); ``message`` is written for the player.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class NotYourTurn(IllegalAction):
    def __init__(self, message: str = "It is not your turn.") -> None:
        super().__init__("not-your-turn", message)


class InvalidMeld(ValueError):
    """Tiles that do not form a set or run; the message says why."""
