"""The ring on what another seat's last turn put down, as the server draws it: a reloaded page
must ring the pieces game-shell.js rang live, in every game.

The page's script knows a piece by its part, its face and how many alike come before it in
that part (``piecesOf``), and after each version it rings the keys that part did not have
before.  So when a part gains n pieces of one face, the script rings the last n of that face in
page order, whichever of them is physically new; over a turn of several actions it rings the
union of each action's new keys.  ``ringed`` replays that from the part as it is now and each
action's net change per face (read by each game from its public events), walking back from
the end: the server never needs the positions before the turn.

The marks are public: every viewer's page shows them alike (the script leaves a seat's own
move unringed), and the changes come from the events' public fields only, never a secret.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from games.models import Action

# One action's net change to each part's pieces: part name -> face -> how many more.
Changes = Mapping[str, Counter[str]]


def same_turn(actions: Sequence[Action]) -> list[Action]:
    """The newest actions made by one seat in a row, newest first."""
    run: list[Action] = []
    for action in reversed(actions):
        if action.seat is None or (run and action.seat != run[0].seat):
            break
        run.append(action)
    return run


def ringed(faces: Sequence[str], changes: Sequence[Counter[str]]) -> frozenset[int]:
    """Positions in ``faces`` (a part's pieces in page order, now) that the script rings after
    actions that changed the part by ``changes`` (oldest first).  A removal whose faces are
    unknown (a Remi pick's later tiles) may be left out when no change comes before it."""
    count = Counter(faces)
    keys: set[tuple[str, int]] = set()
    for change in reversed(changes):
        for face, more in change.items():
            before = count[face] - more
            keys.update((face, n) for n in range(before + 1, count[face] + 1))
            count[face] = before
    seen: Counter[str] = Counter()
    positions = set()
    for position, face in enumerate(faces):
        seen[face] += 1
        if (face, seen[face]) in keys:
            positions.add(position)
    return frozenset(positions)


def ringed_in(part: str, faces: Sequence[str], steps: Sequence[Changes]) -> frozenset[int]:
    """``ringed`` for one part, from every action's changes to all parts."""
    return ringed(faces, [step.get(part, Counter()) for step in steps])


def split_positions(positions: frozenset[int], sizes: Sequence[int]) -> list[frozenset[int]]:
    """Positions in a part's pieces as positions within each of its groups (melds), in order."""
    groups = []
    start = 0
    for size in sizes:
        groups.append(frozenset(p - start for p in positions if start <= p < start + size))
        start += size
    return groups
