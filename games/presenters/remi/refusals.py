"""Remi's refusals in words: :func:`message_for` turns a refusal's code and parameters into
the sentence the act view shows beside the controls, in the player's language.

Three catalogues: ``ILLEGAL`` (a rule refused the move: ``IllegalAction``), ``MALFORMED``
(the move could not be read: ``InvalidAction``, the page's own slips included) and
``MELD_FAULTS`` (why tiles are not a meld: ``InvalidMeld``, carried inside ``invalid-meld``,
``cannot-add`` and ``cannot-swap`` as their ``fault``).  A code without an entry fails
``tests/games/test_remi_sentences.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.engine.core.errors import IllegalAction, InvalidMeld, Refusal

from .text import seat_name

Names = Sequence[str]
Params = Mapping[str, Any]
Sentence = Callable[[Params, Names], str]


def message_for(refusal: Refusal, names: Names = ()) -> str:
    """The sentence for ``refusal``; ``names`` are the seats' names (a refusal names seats by
    number)."""
    if isinstance(refusal, InvalidMeld):
        return fault_text(refusal.as_data())
    catalogue = ILLEGAL if isinstance(refusal, IllegalAction) else MALFORMED
    sentence = catalogue.get(refusal.code)
    if sentence is None:
        # A code this catalogue lacks (the test of the catalogues stops that reaching a
        # release): say something true rather than nothing.
        return _("That move is not possible (%(code)s).") % {"code": refusal.code}
    return sentence(refusal.params, names)


def fault_text(fault: Params) -> str:
    """Why tiles are not a meld, from a fault's data (``{"code": ..., **params}``)."""
    sentence = MELD_FAULTS.get(str(fault.get("code")))
    if sentence is None:
        return _("These tiles do not make a meld.")
    return sentence(fault, ())


def _tiles(params: Params, key: str = "tiles") -> str:
    value = params.get(key, ())
    return value if isinstance(value, str) else " ".join(str(t) for t in value)


def _fault(params: Params, names: Names) -> str:
    return fault_text(params.get("fault") or {})


def _by_action(**sentences: Promise) -> Sentence:
    """One code, a sentence per ``action`` parameter (what the player tried).  The sentences
    are lazy: they are put in the reader's language when read, not at import."""

    def sentence(params: Params, names: Names) -> str:
        return str(sentences.get(str(params.get("action")), next(iter(sentences.values()))))

    return sentence


def _not_your_turn(params: Params, names: Names) -> str:
    if params.get("turn") is None:
        return _("It is not your turn.")
    return _("It is %(name)s's turn.") % {"name": seat_name(names, params["turn"])}


def _use_discard(params: Params, names: Names) -> str:
    if params.get("action") == "discard":
        return _("Use the %(tile)s you took in your first meld, or put it back.") % params
    return _("Your first meld must use the %(tile)s you took, or put it back.") % params


def _no_offer(params: Params, names: Names) -> str:
    if params.get("other") is None:
        return _("Offer a doubla of your own first.")
    return _("%(name)s has no doubla on offer.") % {"name": seat_name(names, params["other"])}


def _doubla_label(params: Params, names: Names) -> str:
    label = str(params.get("label"))
    shown = {"high": pgettext("doubla", "high"), "low": pgettext("doubla", "low")}.get(label, label)
    return _("A pair of %(number)ss is '%(label)s'.") % {
        "number": params.get("number"),
        "label": shown,
    }


ILLEGAL: dict[str, Sentence] = {
    "not-your-turn": _not_your_turn,
    "prelude": lambda p, n: _("Play has not begun: everyone must first finish with doublas."),
    "must-open": lambda p, n: _("The first player begins by discarding one tile."),
    "must-draw": lambda p, n: _(
        "Start your turn by drawing a tile or taking from the discard row."
    ),
    "already-drew": lambda p, n: _("You have already drawn this turn: meld, add, or discard."),
    "game-over": lambda p, n: _("The game is over."),
    "not-on-rack": lambda p, n: _("You do not hold %(tiles)s.") % {"tiles": _tiles(p)},
    "keep-a-discard": lambda p, n: _(
        "You must keep a tile to discard: every turn ends with a discard."
    ),
    "invalid-meld": _fault,
    "first-meld-too-low": lambda p, n: (
        _("Your first meld is worth %(points)d; it needs %(needed)d.") % p
    ),
    "first-meld-needs-run": lambda p, n: _("Your first meld must include a run."),
    "use-discard": _use_discard,
    "not-melded-yet": _by_action(
        take=gettext_lazy("Until your first meld you must draw from the wall."),
        pick=gettext_lazy("You can take from the discard row only after your first meld."),
        add=gettext_lazy("You can add to melds only after your first meld."),
        swap=gettext_lazy("You can swap Jolys only after your first meld."),
    ),
    "first-meld-turn": _by_action(
        add=gettext_lazy("In the turn of your first meld you may not add to other players' melds."),
        swap=gettext_lazy("In the turn of your first meld you may not swap Jolys."),
        **{
            "swap-own": gettext_lazy(
                "In the turn of your first meld you may free a Joly only from a meld you "
                "have just laid."
            )
        },
    ),
    "cannot-add": _fault,
    "cannot-swap": _fault,
    "first-tile": lambda p, n: _("The first tile of the discard row can never be taken."),
    "row-locked": lambda p, n: _("With one or two tiles on your rack you must draw from the wall."),
    "exposed-gone": lambda p, n: _("The exposed tile has already been taken."),
    "must-go-out": lambda p, n: _(
        "You took the exposed tile: meld all your other tiles and discard the last one, "
        "or put the exposed tile back."
    ),
    "nothing-to-undo": lambda p, n: _("There is nothing to put back."),
    "doubla-off": lambda p, n: _("Doublas are not played at this table."),
    "prelude-over": lambda p, n: _("Doublas are exchanged only before play begins."),
    "doubla-made": lambda p, n: (
        _("Your doubla is still on offer: exchange it before offering another.")
        if p.get("open")
        else _("You have already offered a doubla.")
    ),
    "doubla-joly": lambda p, n: _("A doubla is a pair of numbered tiles, not Jolys."),
    "no-pair": lambda p, n: _("You do not hold two %(tile)s.") % p,
    "doubla-label": _doubla_label,
    "no-offer": _no_offer,
    "already-ready": lambda p, n: (
        _("You said you were ready.") if p.get("asking") else _("You are already ready.")
    ),
    "already-declared": lambda p, n: _("You have already declared the twin."),
    "declare-too-late": lambda p, n: _(
        "The twin of the exposed tile is declared before your first turn."
    ),
    "no-twin": lambda p, n: _("You do not hold the twin of the exposed tile (%(tile)s).") % p,
}


def _fits(params: Params, names: Names) -> str:
    """A rule option out of its range (rules are checked when a table is made)."""
    if "allowed" in params:
        allowed = ", ".join(str(a) for a in params["allowed"])
        return _("%(option)s must be one of %(allowed)s.") % {**params, "allowed": allowed}
    if "most" in params:
        return _("%(option)s must be between %(least)d and %(most)d.") % params
    if "least" in params:
        return _("%(option)s must be at least %(least)d.") % params
    return _("%(option)s cannot be negative.") % params


_NUMBER_WANTED = {
    "meld": gettext_lazy("a meld number"),
    "row": gettext_lazy("a row position"),
    "seat": gettext_lazy("a seat"),
}


def _not_a_number(params: Params, names: Names) -> str:
    wanted = _NUMBER_WANTED.get(str(params.get("wanted")), params.get("wanted"))
    return _("Expected %(wanted)s (a number in digits 0-9), got '%(word)s'.") % {
        "wanted": wanted,
        "word": params.get("word"),
    }


MALFORMED: dict[str, Sentence] = {
    # The notation (games.engine.remi.actions, games.engine.tiles)
    "not-a-tile": lambda p, n: (
        _("'%(text)s' is not a tile: write a colour (R, Y, B, K) and a number 1-13, or J") % p
    ),
    "only-joly-stands": lambda p, n: _("Only a Joly can stand for another tile: '%(word)s'") % p,
    "no-tiles": lambda p, n: _("Name the tiles."),
    "not-a-number": _not_a_number,
    "not-text": lambda p, n: _("An action is written as text."),
    "empty": lambda p, n: _("Empty action."),
    "takes-nothing": lambda p, n: _("'%(verb)s' takes nothing after it.") % p,
    "discard-one": lambda p, n: _("Discard exactly one tile: 'discard R5'."),
    "add-form": lambda p, n: _("Write the meld number and the tiles: 'add 3 R4'."),
    "pick-form": lambda p, n: _(
        "Write the row position, its tile and two of yours: 'pick 5 B7 B5 B6'."
    ),
    "swap-form": lambda p, n: _(
        "Write 'swap <meld> <tiles> into <new meld>': 'swap 2 B8 into J K8 Y8'."
    ),
    "swap-replacement": lambda p, n: _("Name the tile(s) that replace the Joly."),
    "doubla-form": lambda p, n: _("Write 'doubla R5' or 'doubla R5 high'."),
    "doubla-label-form": lambda p, n: _("A doubla is announced as 'high' or 'low'."),
    "exchange-form": lambda p, n: _("Write 'exchange <seat>'."),
    "unknown-verb": lambda p, n: _("Unknown action '%(verb)s'.") % p,
    # Well-formed notation that names what is not there (games.engine.remi.turns)
    "player-count": lambda p, n: _("Remi is played by %(least)d to %(most)d players.") % p,
    "no-seat": lambda p, n: _("No seat %(seat)s at this table.") % p,
    "unknown-action": lambda p, n: _("Unknown action %(action)s.") % p,
    "no-meld": lambda p, n: _("There is no meld %(meld)s on the table.") % p,
    "no-other-seat": lambda p, n: _("No other seat %(seat)s at this table.") % p,
    "no-row-position": lambda p, n: _("The discard row has no position %(position)s.") % p,
    "pick-tiles": lambda p, n: (
        _("Name the row tile (%(tile)s) and two tiles of yours: 'pick %(position)s %(tile)s …'.")
        % p
    ),
    "swap-needs-joly": lambda p, n: _("The new meld must include the freed Joly (J)."),
    # Rule options (games.engine.remi.rules)
    "bad-option": _fits,
    "unknown-options": lambda p, n: (
        _("Unknown rule options: %(options)s") % {"options": ", ".join(p.get("options", ()))}
    ),
    # The game page's own slips (games.presenters.remi.forms)
    "type-a-move": lambda p, n: _("Type a move, for example 'meld R1 R2 R3'."),
    "select-discard": lambda p, n: _("Select the one tile to discard."),
    "select-meld": lambda p, n: _("Select the tiles to meld (press New group between two melds)."),
    "select-add": lambda p, n: _("Click a meld on the table, then select the tiles to add."),
    "select-swap": lambda p, n: _(
        "Click the meld with the Joly, select the tile(s) that replace it, press New "
        "group, then select the tiles to meld the Joly with."
    ),
    "select-pick": lambda p, n: _(
        "Click a tile in the discard row, then select two of your tiles that meld with it."
    ),
    "select-doubla": lambda p, n: _("Select the tile you hold twice."),
    "select-exchange": lambda p, n: _("Choose whom to exchange doublas with."),
}


def _extend(params: Params, names: Names) -> str:
    shown = {"tiles": _tiles(params), "meld": params.get("meld")}
    if params.get("fault"):
        return _("%(tiles)s cannot be added to %(meld)s: %(reason)s") % {
            **shown,
            "reason": fault_text(params["fault"]),
        }
    return _("%(tiles)s cannot be added to %(meld)s.") % shown


def _free_joly(params: Params, names: Names) -> str:
    needed = {"tiles": _tiles(params)}
    if len(params.get("tiles", ())) == 2:
        return _("To free this Joly you must lay both missing tiles: %(tiles)s.") % needed
    return _("To free this Joly you must lay %(tiles)s.") % needed


MELD_FAULTS: dict[str, Sentence] = {
    "too-few-tiles": lambda p, n: _("A meld needs at least three tiles."),
    "too-many-jolys": lambda p, n: _(
        "A meld needs at least twice as many numbered tiles as Jolys."
    ),
    "set-colours": lambda p, n: _("A set needs tiles of different colours."),
    "not-a-meld": lambda p, n: _(
        "These tiles are neither a set (one number, different colours) nor a run "
        "(one colour, consecutive numbers)."
    ),
    "designations": lambda p, n: _("%(jolys)d Joly(s) but %(given)d designation(s) given.") % p,
    "joly-as-joly": lambda p, n: _("A Joly must stand for a numbered tile."),
    "set-too-long": lambda p, n: _("A set has at most four tiles, one of each colour."),
    "set-joly": lambda p, n: _("In this set a Joly can only stand for a missing %(number)d.") % p,
    "run-joly-colour": lambda p, n: (
        _("A Joly in a %(colour)s run must stand for a %(colour)s tile.") % p
    ),
    "run-too-long": lambda p, n: _("A run cannot be longer than 1 to 13 and 1."),
    "run-repeats": lambda p, n: _("A run cannot hold the same number twice."),
    "run-gaps": lambda p, n: (
        _(
            "%(tiles)s cannot make a run with %(jolys)d Joly(s): the numbers must be consecutive "
            "and a 1 may only start a run or follow the 13."
        )
        % {"tiles": _tiles(p), "jolys": p.get("jolys")}
    ),
    "nothing-added": lambda p, n: _("Add at least one tile."),
    "cannot-extend": _extend,
    "no-joly": lambda p, n: _("That meld has no Joly."),
    "joly-for-joly": lambda p, n: _("A Joly can only be replaced by numbered tiles."),
    "run-one-replacement": lambda p, n: _(
        "In a run, one tile replaces a Joly: the tile it stands for."
    ),
    "joly-not-for": lambda p, n: _("No Joly in %(meld)s stands for %(tile)s.") % p,
    "free-joly-needs": _free_joly,
    # Not a fault of the tiles themselves: the swap's new meld had the freed Joly alone.
    "freed-joly-alone": lambda p, n: _(
        "Meld the freed Joly at once with at least two tiles from your rack."
    ),
}
