"""A tile game's rack in the player's own order, saved on their seat (``Seat.rack_order``)
with the game it belongs to, since a seat plays every game of a series."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.engine.tiles import parse_tiles, sort_key


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
