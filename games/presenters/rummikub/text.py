"""The tile rummy's sentences: its engine speaks in codes and parameters (events, refusals,
faults, meld reasons); these functions word them with gettext for one viewer.

A drawn tile is an event's ``secret``: it is shown only when the viewer is the event's seat
(the action log stores it for that seat's own log, see ``GameEngine.dump_event``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# Why tiles are not a meld (``MeldFault.code``), as a player reads it.
MELD_REASONS = {
    "too-short": lambda: _("a meld needs at least three tiles"),
    "only-jokers": lambda: _("a meld needs a numbered tile"),
    "set-numbers": lambda: _("a set is one number"),
    "set-repeats-colour": lambda: _("a set has each colour once"),
    "set-too-long": lambda: _("a set has at most four tiles"),
    "run-colours": lambda: _("a run is one colour"),
    "run-repeats-number": lambda: _("a run has each number once"),
    "run-gap": lambda: _("a run has no gaps"),
    "run-too-long": lambda: _("a run stops at 13 (no 13-1)"),
    "mixed": lambda: _("neither a run nor a set"),
    "joker-reading": lambda: _("a joker cannot stand for that tile there"),
    "joker-count": lambda: _("the joker readings do not match the jokers"),
}


def meld_reason(code: str) -> str:
    reason = MELD_REASONS.get(code)
    return reason() if reason else _("not a run or a set")


def _tiles(tiles: Sequence[str]) -> str:
    return " ".join(str(t) for t in tiles)


def fault_text(fault: Mapping[str, Any]) -> str:
    """One fault of a play (``judge``'s and the ``penalty`` event's)."""
    code = fault.get("code")
    if code == "invalid-meld":
        return _("meld %(number)d: %(reason)s") % {
            "number": int(fault.get("meld", 0)) + 1,
            "reason": meld_reason(str(fault.get("reason", ""))),
        }
    if code == "first-meld-too-low":
        return _("first melds worth %(points)d of the %(needed)d needed") % {
            "points": fault.get("points", 0),
            "needed": fault.get("needed", 0),
        }
    if code == "table-before-first-meld":
        return _("the table was touched before the first melds")
    if code == "joker-not-replaced":
        if fault.get("from_rack"):
            return _("the joker (%(joker)s) moved without its tile from the rack") % {
                "joker": fault.get("joker", "")
            }
        return _("the joker (%(joker)s) moved without its tile replacing it") % {
            "joker": fault.get("joker", "")
        }
    if code == "joker-meld-locked":
        return _("the meld %(meld)s holds a joker: it may grow but lose no tile") % {
            "meld": fault.get("meld", "")
        }
    if code == "freed-joker-own-meld":
        return _("a freed joker (%(joker)s) goes only into a new meld of your own tiles") % {
            "joker": fault.get("joker", "")
        }
    if code == "time-up":
        return _("time ran out")
    return str(code)


def refusal_text(code: str, params: Mapping[str, Any], names: Sequence[str]) -> str:
    """A refused move (nothing changed): the engine's ``IllegalAction`` code and params."""
    if code == "not-on-rack":
        return _("Not on your rack: %(tiles)s.") % {"tiles": _tiles(params.get("tiles", ()))}
    if code == "table-tile-missing":
        return _("Tiles on the table never go back to a rack: %(tiles)s.") % {
            "tiles": _tiles(params.get("tiles", ()))
        }
    if code == "nothing-placed":
        return _("You placed no tile from your rack: play one, or draw.")
    if code == "not-your-turn":
        turn = params.get("turn")
        if isinstance(turn, int) and 0 <= turn < len(names):
            return _("It is %(name)s's turn.") % {"name": names[turn]}
        return _("It is not your turn.")
    if code == "game-over":
        return _("The game is over.")
    return _("That move is not allowed (%(code)s).") % {"code": code}


# A move typed in the notation box that cannot be read (``InvalidAction``: the engine's
# parser, games.engine.rummikub.actions and games.engine.tiles), in the player's words.
NOTATION_SLIPS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "not-text": lambda p: _("An action is written as text."),
    "unknown-verb": lambda p: _("Unknown action '%(verb)s'.") % {"verb": p.get("verb", "")},
    "takes-nothing": lambda p: (
        _("'%(verb)s' takes nothing after it.") % {"verb": p.get("verb", "")}
    ),
    "play-needs-melds": lambda p: _(
        "Write the whole table after 'play', meld by meld: 'play R1 R2 R3 | K7 Y7 B7'."
    ),
    "empty-meld": lambda p: _("A meld with no tiles: put tiles between each two bars."),
    "not-a-tile": lambda p: (
        _("'%(text)s' is not a tile: write a colour (R, Y, B, K) and a number 1-13, or J")
        % {"text": p.get("text", "")}
    ),
    "joker-reading-missing": lambda p: (
        _("Write the tile the joker stands for after the '=': '%(word)s'.")
        % {"word": p.get("word", "")}
    ),
    "joker-as-joker": lambda p: (
        _("A joker cannot stand for another joker: '%(word)s'.") % {"word": p.get("word", "")}
    ),
    "only-joker-stands": lambda p: (
        _("Only a joker can stand for another tile: '%(word)s'.") % {"word": p.get("word", "")}
    ),
}


def _who(seat: Any, names: Sequence[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def event_text(data: Mapping[str, Any], names: Sequence[str], viewer: int | None) -> str:
    """One stored event as ``viewer`` reads it."""
    code = data.get("code")
    seat = data.get("seat")
    params: Mapping[str, Any] = data.get("params") or {}
    # Stored with the acting seat's secret; only that seat may read it.
    secret: Mapping[str, Any] = (data.get("secret") or {}) if seat == viewer else {}
    name = _who(seat, names)
    mine = seat is not None and seat == viewer
    count = int(params.get("count", 0) or 0)
    if code == "played":
        words = {"name": name, "count": count, "tiles": _tiles(params.get("tiles", ()))}
        if mine:
            text = (
                ngettext(
                    "You played %(count)d tile: %(tiles)s.",
                    "You played %(count)d tiles: %(tiles)s.",
                    count,
                )
                % words
            )
        else:
            text = (
                ngettext(
                    "%(name)s played %(count)d tile: %(tiles)s.",
                    "%(name)s played %(count)d tiles: %(tiles)s.",
                    count,
                )
                % words
            )
        if params.get("first_melds") is not None:
            text += " " + _("First melds worth %(points)d.") % {"points": params["first_melds"]}
        return text
    if code == "drew":
        if secret.get("tiles"):
            return _("You drew %(tiles)s.") % {"tiles": _tiles(secret["tiles"])}
        return ngettext(
            "%(name)s drew %(count)d tile.", "%(name)s drew %(count)d tiles.", count
        ) % {"name": name, "count": count}
    if code == "passed":
        if mine:
            return _("You passed: the stock is empty.")
        return _("%(name)s passed: the stock is empty.") % {"name": name}
    if code == "penalty":
        faults = "; ".join(fault_text(f) for f in params.get("faults", ()))
        if mine:
            text = _("Your turn is taken back (%(faults)s).") % {"faults": faults}
        else:
            text = _("%(name)s's turn is taken back (%(faults)s).") % {
                "name": name,
                "faults": faults,
            }
        if secret.get("tiles"):
            return text + " " + _("You drew %(tiles)s.") % {"tiles": _tiles(secret["tiles"])}
        return (
            text
            + " "
            + ngettext("Penalty: %(count)d tile drawn.", "Penalty: %(count)d tiles drawn.", count)
            % {"count": count}
        )
    if code == "time-up":
        if mine:
            return _("Your time ran out.")
        return _("%(name)s's time ran out.") % {"name": name}
    if code == "went-out":
        if mine:
            return _("You went out!")
        return _("%(name)s went out!") % {"name": name}
    if code == "game-over":
        return game_over_text(params, names)
    return str(code)


def game_over_text(params: Mapping[str, Any], names: Sequence[str]) -> str:
    winner = params.get("winner")
    reason = params.get("reason")
    if reason == "out":
        return _("Game over: %(name)s went out.") % {"name": _who(winner, names)}
    why = (
        _("the stock ran out")
        if reason == "stock-out"
        else _("a full round passed with no tile played")
    )
    if winner is None:
        return _("Game over: %(why)s; the lowest racks are tied, so nobody wins.") % {"why": why}
    return _("Game over: %(why)s; %(name)s has the lowest rack.") % {
        "why": why,
        "name": _who(winner, names),
    }
