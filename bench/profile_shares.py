"""Where a daphne's time goes on a move, from a py-spy profile of it.

Reads the folded stacks ``py-spy record --gil -f raw`` writes while ``bench/live.py`` plays,
counts each sampled stack once, in the first part of a move's path it is in (the move's own
read, rules and save; the viewers' parts; the sockets; the channel layer; the event loop), and
prints each part's share; with the moves the profiled process played in the profile's time,
milliseconds per move too (samples are taken while a thread holds the interpreter, so on a
loaded machine they also count time the thread waited to be scheduled).

    python bench/profile_shares.py PROFILE [--moves N] [--rate HZ]
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

FRAME = re.compile(r" \(.*")


def part_of(frames: list[str]) -> str:
    names = [FRAME.sub("", frame) for frame in frames]

    def has(pattern: str) -> bool:
        return any(re.search(pattern, name) for name in names)

    if has(r"^SharedViews\.prerender$"):
        return "other viewers' parts, rendered in the move's hop"
    if has(r"^GameConsumer\._move$"):
        return _move_part(has)
    if has(r"^SharedViews\._render$|^render_updates$"):
        return "other viewers' parts, rendered on a hop of their own"
    if has(r"^GameConsumer\.(game_updated|_send_parts|_send_if_newer)") or has(r"SentParts"):
        return "sockets: the news received, parts compared and sent"
    if has(r"Redis|redis|channels_redis"):
        return "channel layer (Redis)"
    if has(r"^BaseEventLoop\._run_once$"):
        return "event loop, hops, socket I/O"
    return "other"


def _move_part(has: Callable[[str], bool]) -> str:
    if has(r"^viewable_game$"):
        return "the move: game and seats read for update"
    if has(r"^play_locked$") and not has(r"after_commit"):
        return "the move: rules, clocks, save"
    if has(r"after_commit"):
        return "the move: after commit (publishing, turn notices)"
    if has(r"render|Render|rendered|game_context|viewer_context"):
        return "the mover's own parts"
    if has(r"Atomic|commit|set_autocommit"):
        return "the move: transaction commit"
    return "the move: form and the rest"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("profile", type=Path, help="py-spy's raw (folded) output, or .gz")
    parser.add_argument("--moves", type=float, help="moves the process played meanwhile")
    parser.add_argument("--rate", type=float, default=200.0, help="py-spy's samples per second")
    args = parser.parse_args()
    opener = gzip.open if args.profile.suffix == ".gz" else open
    shares: Counter[str] = Counter()
    with opener(args.profile, "rt") as lines:
        for line in lines:
            stack, _, count = line.rstrip().rpartition(" ")
            if stack:
                shares[part_of(stack.split(";"))] += int(count)
    total = sum(shares.values())
    for part, samples in shares.most_common():
        per_move = f"  {samples / args.rate / args.moves * 1000:6.2f} ms/move" if args.moves else ""
        print(f"{100 * samples / total:5.1f}%  {part}{per_move}")
    print(f"{total} samples")


if __name__ == "__main__":
    main()
