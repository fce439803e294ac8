"""What one seat (or a spectator) sees of a game, as template context.

The game page view, the ``act`` view, the replay view and the WebSocket consumer all build
their context with :func:`game_context`, so a move answered over HTTP and the same move pushed
over the socket render identical HTML.  The context is made from the engine's
``player_view`` only: another seat's rack, the wall and the seed never enter it, so no
template can leak them by mistake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.urls import reverse

from games import engine
from games.engine.events import Event
from games.engine.series import Series
from games.engine.state import DRAW, OPEN, OVER, PLAY, PRELUDE, State
from games.engine.tiles import COLOUR_NAMES, parse_tiles, sort_key
from games.models import Action, Game, Seat

# How many actions of the log a page shows: enough to follow a round of four players.
LOG_ACTIONS = 40

PHASE_LABELS = {
    PRELUDE: "Doublas and declarations",
    OPEN: "Opening discard",
    DRAW: "Draw or take",
    PLAY: "Meld and discard",
    OVER: "Game over",
}

# Buttons in the order they appear, with their keyboard shortcut.  The prelude has its own
# set; ``declare`` is possible in both until the player's first action.
PRELUDE_BUTTONS = (
    ("doubla", "Doubla", "o"),
    ("exchange", "Exchange", "h"),
    ("ready", "Ready", "r"),
    ("declare", "Declare twin", "c"),
)
PLAY_BUTTONS = (
    ("draw", "Draw", "d"),
    ("take", "Take", "t"),
    ("pick", "Pick", "p"),
    ("exposed", "Take exposed", "e"),
    ("meld", "Meld", "m"),
    ("add", "Add", "a"),
    ("swap", "Swap Joly", "s"),
    ("discard", "Discard", "x"),
    ("declare", "Declare twin", "c"),
    ("undo", "Undo", "u"),
)

BREAKDOWN_LABELS = {
    "melded": "Melded",
    "rack": "Left on rack",
    "win": "Going out",
    "all_at_once": "All at once",
    "never_melded": "Never melded",
    "twin": "Twin of the exposed tile",
    "doubled": "Doubled (went out on a Joly)",
}


@dataclass(frozen=True, slots=True)
class TileView:
    """A tile as the templates draw it: the letter and number always show, so colour is
    never the only way to tell tiles apart."""

    code: str
    colour: str  # a CSS-friendly colour name, or "joly"
    letter: str
    number: str
    label: str  # for screen readers: "red 12", "Joly", "Joly as blue 4"
    stands: str = ""  # for a Joly in a meld, the tile it stands for

    @property
    def is_joly(self) -> bool:
        return self.code == "J"


@cache
def tile_view(code: str, stands_for: str | None = None) -> TileView:
    if code == "J":
        if stands_for and stands_for != "J":
            return TileView(
                "J", "joly", "J", "", f"Joly as {tile_view(stands_for).label}", stands_for
            )
        return TileView("J", "joly", "J", "", "Joly")
    colour = COLOUR_NAMES[code[0]]
    return TileView(code, colour, code[0], code[1:], f"{colour} {code[1:]}")


def tiles_view(codes: Iterable[str]) -> list[TileView]:
    return [tile_view(code) for code in codes]


def arrange_rack(rack: Sequence[str], saved: object) -> list[str]:
    """The rack in the player's own order: the saved order for the tiles still held, then any
    tiles that came since, in the order they came.  With nothing saved, a tidy sorted rack."""
    if not isinstance(saved, list) or not saved:
        return [str(t) for t in sorted(parse_tiles(rack), key=sort_key)]
    left = Counter(rack)
    ordered: list[str] = []
    for code in saved:
        if isinstance(code, str) and left[code] > 0:
            ordered.append(code)
            left[code] -= 1
    for code in rack:
        if left[code] > 0:
            ordered.append(code)
            left[code] -= 1
    return ordered


def saved_order(rack_order: object, game_id: int) -> list[str]:
    """The order a seat saved for this game's rack.  A seat plays every game of the series,
    so the order is saved with its game: the last game's order means nothing to a new deal."""
    if isinstance(rack_order, dict) and rack_order.get("game") == game_id:
        tiles = rack_order.get("tiles")
        return tiles if isinstance(tiles, list) else []
    return []


def order_to_save(tiles: list[str], game_id: int) -> dict[str, Any]:
    return {"game": game_id, "tiles": tiles}


# --- Loading and access ---------------------------------------------------------------------


@dataclass(frozen=True)
class Viewing:
    """A game as one user may see it: their seat, or None for a spectator."""

    game: Game
    seats: list[Seat]
    seat: int | None

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def viewable_game(game_id: int, user: Any) -> Viewing | None:
    """The game and the user's seat, or None when the user may not see it.

    Players of the table see their game; anyone logged in may watch a public table; a
    private table is for its players only.  Two queries: the game with its table, the seats.
    """
    if user is None or not user.is_authenticated:
        return None
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    # Names come from the game's state, so the seats' users need not be joined.
    seats = list(Seat.objects.filter(table_id=game.table_id))
    seat = next((s.position for s in seats if s.user_id == user.pk), None)
    if seat is None and not game.table.is_public:
        return None
    return Viewing(game, seats, seat)


def recent_actions(game: Game, limit: int = LOG_ACTIONS) -> list[Action]:
    """The last ``limit`` actions, oldest first (one query)."""
    latest = list(
        Action.objects.filter(game=game)
        .order_by("-version")
        .only("version", "seat", "events")[:limit]
    )
    latest.reverse()
    return latest


# --- The context ----------------------------------------------------------------------------


def game_context(
    game: Game,
    seats: Sequence[Seat],
    seat: int | None,
    *,
    actions: Sequence[Action] | None = None,
    state: State | None = None,
    error: str = "",
    notice: str = "",
    replay: bool = False,
) -> dict[str, Any]:
    """Everything the game templates need for ``seat`` (None: a spectator).

    ``actions`` are the log's actions, oldest first (loaded when omitted).  ``state`` replaces
    the game's current state — the replay shows earlier positions of a finished game with it.
    """
    if state is None:
        state = State.from_dict(game.state)
    view = engine.player_view(state, seat)
    if actions is None:
        actions = recent_actions(game)
    names: list[str] = view["names"]
    over = view["phase"] == OVER
    can = set(view["can"])
    warning = view["rules"].get("low_tile_warning", 3)
    offers = view["offers"]

    players = [
        {
            "seat": i,
            "name": name,
            "is_you": i == seat,
            "is_turn": not over and view["phase"] != PRELUDE and i == view["turn"],
            "is_dealer": i == view["dealer"],
            "rack_count": view["rack_counts"][i],
            "melded": view["has_melded"][i],
            "few_tiles": view["phase"] != PRELUDE and view["rack_counts"][i] <= warning,
            "ready": view["ready"][i],
            "offer": offers[i],
            "declared": view["declared"][i],
            "total": None,  # the series total, filled in below when there is a series
        }
        for i, name in enumerate(names)
    ]

    meld_groups = []
    for owner, name in enumerate(names):
        melds = []
        for m in view["melds"]:
            if m["by"] != owner:
                continue
            tiles = [tile_view(code, as_) for code, as_ in zip(m["tiles"], m["as"], strict=True)]
            melds.append(
                {
                    "id": m["id"],
                    "kind": m["kind"],
                    "tiles": tiles,
                    "label": f"Meld {m['id']}, {m['kind']}: " + ", ".join(t.label for t in tiles),
                }
            )
        if melds:
            meld_groups.append(
                {"seat": owner, "name": name, "is_you": owner == seat, "melds": melds}
            )

    row = [
        {
            "index": i,
            "tile": tile_view(code),
            "first": i == 0,
            "by": names[by] if 0 <= by < len(names) else "",
        }
        for i, (code, by) in enumerate(zip(view["discards"], view["discarded_by"], strict=True))
    ]

    rack = None
    if seat is not None and view["rack"] is not None and not over:
        saved = next((s.rack_order for s in seats if s.position == seat), None)
        rack = tiles_view(arrange_rack(view["rack"], saved_order(saved, game.pk)))

    buttons_spec = PRELUDE_BUTTONS if view["phase"] == PRELUDE else PLAY_BUTTONS
    buttons = [
        {"verb": verb, "label": label, "key": key, "enabled": verb in can}
        for verb, label, key in buttons_spec
    ]
    exchange_with = [
        {"seat": i, "name": names[i]}
        for i, offer in enumerate(offers)
        if offer is not None and i != seat
    ]

    series = _series(game, over) if not replay else None
    if series is not None:
        for player, total in zip(players, series["totals"], strict=False):
            player["total"] = total["total"]

    turn_name = names[view["turn"]] if 0 <= view["turn"] < len(names) else ""
    waiting_for = [names[i] for i, ready in enumerate(view["ready"]) if not ready]

    return {
        "game_id": game.pk,
        "game_number": game.number + 1,
        "table_id": game.table_id,
        "version": game.version if not replay else None,
        "seat": seat,
        "is_player": seat is not None,
        "names": names,
        "phase": view["phase"],
        "phase_label": PHASE_LABELS.get(view["phase"], view["phase"]),
        "over": over,
        "turn": view["turn"],
        "turn_name": turn_name,
        "my_turn": seat is not None and not over and view["turn"] == seat,
        "waiting_for": waiting_for,
        "deadline": None if (over or replay) else game.deadline,
        "players": players,
        "rack": rack,
        "meld_groups": meld_groups,
        "meld_count": len(view["melds"]),
        "row": row,
        "wall_count": view["wall_count"],
        "exposed": tile_view(view["exposed"]) if view["exposed"] else None,
        "exposed_tile": tile_view(view["exposed_tile"]) if view["exposed_tile"] else None,
        "can": can,
        "buttons": buttons,
        "exchange_with": exchange_with,
        "pending": view["pending"],
        "log": _log(actions, names, seat),
        "result": _result(view, names) if over else None,
        "series": series,
        "error": error,
        "notice": notice,
        "replay": replay,
        "urls": _urls(game),
        "help_keys": [(b["key"], b["label"]) for b in buttons],
    }


def _log(actions: Sequence[Action], names: list[str], seat: int | None) -> list[dict[str, Any]]:
    """Newest first.  Each stored event keeps its own seat's secret; ``text`` shows it only
    when the viewer is that seat."""
    entries = []
    for action in reversed(actions):
        lines = [Event.from_dict(data).text(names, seat) for data in action.events or ()]
        entries.append({"version": action.version, "seat": action.seat, "lines": lines})
    return entries


def _in_order(parts: dict[str, int]) -> list[tuple[str, int]]:
    """The score parts in the order of BREAKDOWN_LABELS: PostgreSQL's jsonb does not keep the
    keys' order, and a page must not depend on the database (nor differ from the act answer,
    which renders the state before it was stored)."""
    order = list(BREAKDOWN_LABELS)
    return sorted(
        parts.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0])
    )


def _result(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    result = view["result"] or {}
    final_racks = view["final_racks"] or [[] for _ in names]
    winner = result.get("winner")
    rows = []
    for i, name in enumerate(names):
        parts = dict(result.get("breakdown", [{}] * len(names))[i])
        total = parts.pop("total", result.get("scores", [0] * len(names))[i])
        rows.append(
            {
                "seat": i,
                "name": name,
                "winner": i == winner,
                "rack": tiles_view(final_racks[i]),
                "parts": [(BREAKDOWN_LABELS.get(k, k), v) for k, v in _in_order(parts)],
                "total": total,
            }
        )
    return {
        "winner": names[winner] if winner is not None else None,
        "reason": result.get("reason"),
        "joly_out": result.get("joly_out", False),
        "all_at_once": result.get("all_at_once", False),
        "rows": rows,
    }


def _series(game: Game, over: bool) -> dict[str, Any] | None:
    """Series totals from the table, and where the next game is once this one is over."""
    data = game.table.series
    if not data:
        return None
    series = Series.from_dict(data)
    next_url = None
    if over and not series.over:
        # Only a finished game needs this, so an ordinary render stays at its three queries.
        next_pk = (
            Game.objects.filter(table_id=game.table_id, number=game.number + 1)
            .values_list("pk", flat=True)
            .first()
        )
        if next_pk is not None:
            next_url = reverse("games:game", args=[next_pk])
    return {
        "games_played": len(series.games),
        "games_total": series.rules.series_games,
        "target": series.rules.target_score,
        "totals": [
            {"name": name, "total": total}
            for name, total in zip(series.seats, series.totals, strict=True)
        ],
        "over": series.over,
        "next_url": next_url,
    }


def _urls(game: Game) -> dict[str, str]:
    pk = game.pk
    return {
        "game": reverse("games:game", args=[pk]),
        "act": reverse("games:game_act", args=[pk]),
        "rack": reverse("games:game_rack", args=[pk]),
        "next": reverse("games:game_next", args=[pk]),
        "replay": reverse("games:game_replay", args=[pk]),
        "table": reverse("games:table", args=[game.table_id]),
        "ws": f"/ws/games/{pk}/",
    }
