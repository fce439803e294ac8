"""A deal anyone can check: the commitment shown while a game is played, and the check made
once its seed is revealed.

When a game is dealt the site stores ``SHA-256("<game id>:<seed>")`` with it (the
*commitment*) and shows it on the game page from the first move on.  The seed itself stays
on the server until the game is over; then the result and replay pages reveal it, and
:func:`verify` checks three things anyone can redo with the engine's published code:

1. the revealed seed hashes to the commitment shown before the first move, so the seed was
   fixed then and not chosen afterwards;
2. the engine's own ``new_game`` shuffles that seed into a deal (hands, the face-up tile or
   card, the stock in drawing order), shown in full;
3. the game's recorded moves, replayed from that deal, end in exactly the position the game
   ended in, so it was this deal the players played.

The game id is part of the hashed text so that one seed's commitment cannot be passed off
as another game's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from games.engine import GAMES
from games.engine.core.protocol import Deal
from games.models import Action, Game

# The longest seed a visitor may type into the check (ours are 64 hex digits).
MAX_SEED_LENGTH = 200


def commitment_text(game_id: int, seed: str) -> str:
    """The exact text whose SHA-256 is the commitment (shown on the check's page)."""
    return f"{game_id}:{seed}"


def commitment(game_id: int, seed: str) -> str:
    return hashlib.sha256(commitment_text(game_id, seed).encode()).hexdigest()


def seed_of(game: Game) -> str:
    """The game's secret seed.  Only for the server's own use while the game is played."""
    engine = GAMES[game.table.game_type]
    return engine.ctx(engine.load(game.state)).seed


def revealed_seed(game: Game) -> str | None:
    """The seed, once the game is over; None while it is being played (it never leaves the
    server before the end)."""
    if game.status != Game.Status.FINISHED:
        return None
    return seed_of(game)


@dataclass(frozen=True)
class Verification:
    game_id: int
    seed: str
    hashed_text: str
    digest: str
    commitment: str  # "" for a game dealt before commitments were kept
    deal: Deal | None  # None when the seed cannot be dealt at all
    replays: bool  # the recorded moves, played from this deal, end where the game ended
    replay_problem: str  # why they do not (a refusal's code), "" when they do

    @property
    def hash_matches(self) -> bool:
        return bool(self.commitment) and self.digest == self.commitment

    @property
    def verified(self) -> bool:
        return self.hash_matches and self.replays


def verify(game: Game, seed: str) -> Verification:
    """Check ``seed`` against a finished ``game``: its hash against the commitment, and the
    game's recorded moves against the deal it makes.  Raises ``ValueError`` for a game still
    being played (checking guesses against it would tell something about its hidden tiles)."""
    if game.status != Game.Status.FINISHED:
        raise ValueError("Only a finished game's deal can be checked.")
    engine = GAMES[game.table.game_type]
    final = engine.load(game.state)
    ctx = engine.ctx(final)
    rules = engine.rules_of(final)
    try:
        start = engine.new_game(rules, list(ctx.seats), seed, dealer=ctx.dealer)
    except ValueError as problem:
        start, deal = None, None
        replay_problem = getattr(problem, "code", "") or "cannot-deal"
    else:
        deal = engine.deal_of(start)
        replay_problem = ""
    replays = False
    if start is not None:
        moves = Action.objects.filter(game=game).order_by("version").values_list("seat", "notation")
        state = start
        try:
            for seat, notation in moves:
                state, _ = engine.apply(state, seat, notation)
        except ValueError as refusal:
            replay_problem = getattr(refusal, "code", "") or "refused"
        else:
            replays = engine.dump(state) == engine.dump(final)
            if not replays:
                replay_problem = "different-end"
    return Verification(
        game_id=game.pk,
        seed=seed,
        hashed_text=commitment_text(game.pk, seed),
        digest=commitment(game.pk, seed),
        commitment=game.deal_commitment,
        deal=deal,
        replays=replays,
        replay_problem=replay_problem,
    )
