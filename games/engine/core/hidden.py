"""Redealing what a seat cannot see, for the leak tests every game's ``resample_hidden`` feeds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def deal_hidden_again(
    racks: Sequence[Sequence[T]], pile: Sequence[T], seat: int | None, rng: random.Random
) -> tuple[list[list[T]], list[T]]:
    """Every rack but ``seat``'s and the face-down pile poured together, shuffled and dealt
    back in the same sizes: the new racks (``seat``'s unchanged) and the new pile."""
    hidden = [s for s in range(len(racks)) if s != seat]
    pool = [item for s in hidden for item in racks[s]] + list(pile)
    rng.shuffle(pool)
    new_racks = [list(rack) for rack in racks]
    for s in hidden:
        size = len(racks[s])
        new_racks[s], pool = pool[:size], pool[size:]
    return new_racks, pool
