"""The one protocol every game of the site speaks, and the data it shares.

A game is one object (a subclass of :class:`GameEngine`) registered under its key in
``games.engine.GAMES``.  Everything above the engine — services, tasks, views, consumers —
holds a game's state only as an opaque value and asks the game object about it, so a new game
needs its engine package, a presentation adapter and one line of the settings' plug-in list
(``REMI_GAMES``), nothing else.

The contract (the conformance suite, ``tests/engine/test_conformance.py``, checks it for every
registered game):

* **Pure functions.**  ``apply(state, seat, action)`` returns ``(new_state, events)`` and never
  changes its input.  It refuses by raising ``InvalidAction`` (malformed), ``IllegalAction``
  (breaks a rule) or ``NotYourTurn`` — all ``ValueError``, each a stable ``code`` with
  JSON-ready ``params`` and no sentence: the game's presentation words them.
* **Who acts.**  ``to_act(state)`` is the set of seats the game is waiting for; it is empty once
  the game is over, and holds several seats in a phase where everyone acts at once (Remi's
  prelude).  Each seat still submits its own action, one at a time (boardgame.io's
  ``ALL_ONCE``, not OpenSpiel's joint vector).  A seat outside ``to_act`` owes nothing: its
  ``timeout_action`` is ``None`` and a move that advances the game is refused; it may only try
  the optional verbs the game declares in ``Traits.out_of_turn`` (Remi's twin declaration).
* **Randomness lives in the state** (seed and a shuffle counter, :class:`Ctx`), so
  ``replay(rules, seats, seed, actions)`` rebuilds a game exactly.  Bots get their own
  ``random.Random``; a bot never moves the deal.
* **Hidden information.**  ``player_view(state, seat)`` is a JSON-ready dict built by listing
  what the seat may see: its own rack, the public table, counts of the others' racks; never
  another rack, the stock order or the seed.  ``seat=None`` is a spectator (no rack).
* **Notation.**  Actions have a compact text form: ``parse_action(str(a)) == a``.
* **Adjudication.**  ``unfinished_scores(state)`` scores a position as if play stopped there
  with nobody out, by the game's own rule for such an ending (a tournament's deadline).
* **Review.**  ``reviewer()`` judges a turn from the seat's ``player_view`` alone with the
  game's exact planner (``core.review`` walks a finished game with it).
* **Storage.**  ``dump(state)`` is JSON-ready and ``load(dump(state)) == state`` in effect
  (``dump(load(d)) == d``).  A rule change that would replay old logs differently bumps
  ``engine_version``; the site stores the version with each game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

if TYPE_CHECKING:  # the planners' module loads with the first review, not with the registry
    from .review import Reviewer

JSON = dict[str, Any]
"""A JSON-ready mapping (what ``dump``, ``player_view`` and rule ``to_dict`` return)."""


# --- Shared data ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Traits:
    """What callers may branch on instead of a game's name (OpenSpiel's ``GameType``)."""

    # Players hold tiles or cards the others may not see.
    hidden_info: bool = True
    # A phase before play in which every seat acts at once (``to_act`` holds several seats).
    has_prelude: bool = False
    # The ``Ctx.phase`` code of that prelude: there the clock plays the engine's timeout action
    # for an absent player rather than a bot, which might start a negotiation (an offer, an
    # exchange) that keeps everyone waiting another deadline.
    prelude_phase: str = ""
    # Verbs a seat may try while it is not in ``to_act`` (optional, never owed: no deadline
    # waits for them and no bot is asked for them).
    out_of_turn: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended (python-chess ``Outcome``, with rummy scores).

    ``termination`` is a stable code (``"out"``: a player went out; ``"wall"``: the stock ran
    dry).  ``scores`` and ``breakdown`` are per seat; each breakdown maps a scoring part's code
    to its points and includes ``"total"``.  ``details`` holds game-specific flags.
    """

    termination: str
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> JSON:
        return {
            "termination": self.termination,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "breakdown": [dict(b) for b in self.breakdown],
            "details": dict(self.details),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            termination=data["termination"],
            winners=tuple(data["winners"]),
            scores=tuple(data["scores"]),
            breakdown=tuple(dict(b) for b in data.get("breakdown", ())),
            details=dict(data.get("details", {})),
        )


@dataclass(frozen=True, slots=True)
class Ctx:
    """The framework's part of a game (boardgame.io's ``ctx``, apart from the game's own data).

    ``seats`` are the players' names in seat order; ``seed`` and ``shuffles`` drive every
    random event (see :func:`rng_for`); ``turn_number`` counts turns from 0; ``phase`` is the
    game's own code for the stage of play (its presentation names it).  The seed is secret:
    it never enters a player view.
    """

    seats: tuple[str, ...]
    seed: str
    dealer: int
    shuffles: int = 0
    turn_number: int = 0
    phase: str = ""
    to_act: frozenset[int] = frozenset()
    result: Outcome | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.result is not None

    def to_dict(self) -> JSON:
        return {
            "seats": list(self.seats),
            "seed": self.seed,
            "dealer": self.dealer,
            "shuffles": self.shuffles,
            "turn_number": self.turn_number,
            "phase": self.phase,
            "to_act": sorted(self.to_act),
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ctx:
        result = data.get("result")
        return cls(
            seats=tuple(data["seats"]),
            seed=data["seed"],
            dealer=data["dealer"],
            shuffles=data.get("shuffles", 0),
            turn_number=data.get("turn_number", 0),
            phase=data.get("phase", ""),
            to_act=frozenset(data.get("to_act", ())),
            result=Outcome.from_dict(result) if result else None,
        )


@dataclass(frozen=True, slots=True)
class Deal:
    """What a game's shuffle dealt, in the game's own notation: each seat's hand or rack,
    what was turned face up (Remi's exposed tile, Basic Rummy's first discard; empty when
    nothing is) and the rest of the stock in the order it is drawn.  The "verify the deal"
    page shows it once the game is over; while it is played it is as secret as the seed."""

    hands: tuple[tuple[str, ...], ...]
    face_up: tuple[str, ...]
    stock: tuple[str, ...]
    dealer: int

    def to_dict(self) -> JSON:
        return {
            "hands": [list(hand) for hand in self.hands],
            "face_up": list(self.face_up),
            "stock": list(self.stock),
            "dealer": self.dealer,
        }


def rng_for(seed: str, shuffles: int) -> random.Random:
    """The generator for a game's ``shuffles``-th random event.  A game counts its random
    events in its state and asks for the next one here, so a replay from the seed repeats
    every shuffle (the text key keeps the sequence independent of Python's hash seed)."""
    return random.Random(f"{seed}/{shuffles}")


def seat_names(seats: int | Sequence[str]) -> list[str]:
    """Names for the seats: the given names, or "Player 1", "Player 2"... for a count."""
    if isinstance(seats, int):
        return [f"Player {i + 1}" for i in range(seats)]
    return list(seats)


# --- The protocol ---------------------------------------------------------------------------


class RuleSet(Protocol):
    """What a game's rules are to the protocol: options that store as JSON.  Every game's
    rules also take ``series_games`` and ``target_score`` (None for no limit): a tournament
    sets them to make a match of several games (``series_limits`` reads them)."""

    def to_dict(self) -> JSON: ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...


class TurnState(Protocol):
    """The fields the protocol's defaults read from a game's state.  Every game of the site
    keeps them under these names; a game whose state does not overrides the methods that
    read them (``ctx``, ``to_act``, ``rules_of``, ``dump``)."""

    @property
    def rules(self) -> Any: ...
    @property
    def seats(self) -> Sequence[str]: ...
    @property
    def seed(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def turn_number(self) -> int: ...
    @property
    def shuffles(self) -> int: ...

    def to_dict(self) -> JSON: ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...


class GameEvent(Protocol):
    """What ``apply`` says happened (a tile drawn, a meld laid): the seat it concerns, if any,
    and the event as the action log stores it for ``viewer`` — its secret part (the tile
    drawn) only for the seat it belongs to.  The presentation words it."""

    @property
    def seat(self) -> int | None: ...

    def to_dict(self, viewer: int | None = None) -> JSON: ...


S = TypeVar("S", bound=TurnState)
A = TypeVar("A")
R = TypeVar("R", bound=RuleSet)
E = TypeVar("E", bound=GameEvent)


class GameEngine(ABC, Generic[S, A, R, E]):
    """One game of the registry, generic over its state ``S``, action ``A``, rules ``R`` and
    events ``E``.

    Like scalachess's ``Variant``, the base holds what most games share, so a game states
    only where it differs: it sets the class attributes (``state_type`` and ``rules_type``
    among them) and implements the abstract methods, most of them one line naming its own
    function (``apply = staticmethod(apply)``).  Storage, the rules' round trip, ``ctx``,
    ``to_act`` (one seat at a time), ``replay``, ``dump_event``, the series and the next
    dealer come from the defaults below; override them when they do not fit.

    Callers above the engine hold a ``GameEngine[Any, Any, Any, Any]`` and treat states,
    actions, rules and events as opaque values that only the game itself reads.  Seats are
    ints from 0.
    """

    key: ClassVar[str]  # stored in the database: never reused for another game
    label: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # Preset name -> rules; the default preset is stored under the game's key.
    presets: ClassVar[Mapping[str, Any]]
    preset_labels: ClassVar[Mapping[str, str]]
    bot_levels: ClassVar[tuple[str, ...]]  # weakest first
    engine_version: ClassVar[int]
    traits: ClassVar[Traits] = Traits()
    # The game's own classes, which ``load`` and ``load_rules`` build from JSON.  (Not
    # ClassVars: a ClassVar may not name the type variables.)
    state_type: type[S]
    rules_type: type[R]

    @property
    def default_preset(self) -> str:
        return self.key

    def __repr__(self) -> str:
        return f"<game {self.key} v{self.engine_version}>"

    # --- what each game writes ---

    @abstractmethod
    def new_game(
        self, rules: R, seats: int | Sequence[str], seed: int | str, *, dealer: int | None = None
    ) -> S:
        """Shuffle and deal.  ``seats`` are names or a count; ``dealer`` None draws one from
        the seed (a series names it, as the deal passes on)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A | str) -> tuple[S, list[E]]:
        """Play ``action`` (an action or its notation) for ``seat``; never mutates ``state``.
        The events are the game's own (``dump_event`` stores them)."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written as ``text``; raises ``InvalidAction``.  Round-trips with str."""

    @abstractmethod
    def legal(self, state: S, seat: int | None) -> frozenset[str]:
        """The verbs (kinds of action) ``seat`` may try now — for buttons and bots.  Coarse by
        design: a rummy turn has too many concrete melds to list; ``apply`` judges each."""

    @abstractmethod
    def player_view(self, state: S, seat: int | None) -> JSON:
        """What ``seat`` (None: a spectator) may see, JSON-ready."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it is being played."""

    @abstractmethod
    def unfinished_scores(self, state: S) -> tuple[int, ...]:
        """Per seat, what the position is worth if play stopped now with nobody going out:
        the game's own scoring of a game that ends without a winner going out, applied to
        what each seat has melded and still holds (a tournament adjudicates an unfinished
        game by it).  A finished game answers its outcome's scores.  Never changes
        ``state``."""

    @abstractmethod
    def timeout_action(self, state: S, seat: int) -> A | None:
        """The move made for ``seat`` when its time runs out; None when it owes nothing.
        For every seat in ``to_act`` it is an action ``apply`` accepts."""

    @abstractmethod
    def choose(self, view: JSON, level: str, rng: random.Random) -> A:
        """A bot's action, chosen from the seat's ``player_view`` alone."""

    @abstractmethod
    def random_action(self, state: S, seat: int, rng: random.Random) -> A:
        """Some action ``apply`` accepts for ``seat`` (in ``to_act``), for playouts and tests."""

    @abstractmethod
    def reviewer(self) -> Reviewer:
        """The game's :class:`core.review.Reviewer`: where a turn is judged, what lies on the
        table, and the best play its exact planner finds from a seat's view (the review of a
        finished game and the hint at a casual table both ask it)."""

    @abstractmethod
    def resample_hidden(self, state: S, seat: int | None, rng: random.Random) -> S:
        """A copy of ``state`` with everything ``seat`` cannot see dealt afresh (the others'
        hands, the stock), consistent with what it can see (OpenSpiel's
        ``ResampleFromInfostate``).  The leak test asserts the seat's view does not change."""

    @abstractmethod
    def deal_of(self, state: S) -> Deal:
        """What ``state`` holds as dealt: call it on a fresh ``new_game`` to see the deal a
        seed makes (the hands, the face-up tile or card, the stock in drawing order)."""

    # --- defaults: storage and rules ---

    def load_rules(self, data: Mapping[str, Any]) -> R:
        """Rules from their ``to_dict()`` form; raises ``InvalidAction`` on unknown options."""
        return self.rules_type.from_dict(dict(data))

    def dump_rules(self, rules: R) -> JSON:
        """The JSON-ready form of ``rules``."""
        return rules.to_dict()

    def rules_of(self, state: S) -> R:
        """The rules ``state`` is played by (with ``ctx``, what a replay starts from)."""
        rules: R = state.rules
        return rules

    def dump(self, state: S) -> JSON:
        """The JSON-ready form of ``state`` (what the database stores)."""
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> S:
        """The state ``dump`` wrote."""
        return self.state_type.from_dict(dict(data))

    # --- defaults: whose turn, and the framework's part of the state ---

    def to_act(self, state: S) -> frozenset[int]:
        """The seats the game is waiting for; empty when it is over.  By default one seat at
        a time, ``state.turn``; a game with a phase where several act at once overrides it."""
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def dealer_of(self, state: S) -> int:
        """Who dealt ``state``: its ``dealer`` field.  A game that keeps none says who
        stands for the dealer (the seat before the first player, say)."""
        dealer = getattr(state, "dealer", None)
        if not isinstance(dealer, int):
            raise NotImplementedError(f"{type(self).__name__}: a state with no dealer field")
        return dealer

    def ctx(self, state: S) -> Ctx:
        """The framework's part of ``state``: seats, seed, dealer, turn number, who acts.
        Read from the state's fields (``phase`` is empty for a game that has none)."""
        return Ctx(
            seats=tuple(state.seats),
            seed=state.seed,
            dealer=self.dealer_of(state),
            shuffles=state.shuffles,
            turn_number=state.turn_number,
            phase=str(getattr(state, "phase", "")),
            to_act=self.to_act(state),
            result=self.outcome(state),
        )

    # --- defaults: derived ---

    def replay(
        self,
        rules: R,
        seats: int | Sequence[str],
        seed: int | str,
        actions: Iterable[tuple[int, A | str]],
        *,
        dealer: int | None = None,
    ) -> S:
        """Rebuild a game from its setup and its log of ``(seat, action)`` pairs."""
        state = self.new_game(rules, seats, seed, dealer=dealer)
        for seat, action in actions:
            state, _ = self.apply(state, seat, action)
        return state

    def dump_event(self, event: E) -> JSON:
        """One event of ``apply`` as the action log stores it: with the part only its own
        seat may see (a drawn tile), which the presentation shows to that seat alone.  By
        default the event's ``to_dict(viewer=event.seat)``."""
        return event.to_dict(viewer=event.seat)

    def series_limits(self, rules: R, players: int | None = None) -> tuple[int | None, int | None]:
        """How long a series under ``rules`` at a table of ``players`` lasts: a number of
        games and a target score (either may be None).  Rules that name neither make a
        series of one game."""
        return getattr(rules, "series_games", 1), getattr(rules, "target_score", None)

    def series_over(
        self,
        rules: R,
        players: int,
        games: Sequence[Sequence[int]],
        winners: Sequence[Sequence[int]],
    ) -> bool:
        """Whether a series whose finished games scored ``games`` (and were won by
        ``winners``, game by game) is over.  By default: after ``series_limits``' number of
        games, or once a total reaches its target score."""
        count, target = self.series_limits(rules, players)
        if count is not None and len(games) >= count:
            return True
        totals = [sum(scores[i] for scores in games) for i in range(players)]
        return target is not None and any(total >= target for total in totals)

    def next_dealer(self, finished: S, dealer: int, players: int) -> int:
        """Who deals the game after ``finished``: by default the deal passes to the left."""
        return (dealer + 1) % players


AnyGame = GameEngine[Any, Any, Any, Any]
"""A game as the layers above the engine hold it: its state, actions, rules and events
opaque."""
