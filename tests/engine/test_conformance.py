"""The game protocol, checked the same way for every game in the registry (in the spirit of
OpenSpiel's ``basic_tests``): random playouts finish, ``apply`` never changes its input,
states survive JSON, a seed replays the same game, idle seats owe and may do nothing that
moves the game on, notation round-trips, views keep other hands and the seed secret, the
timeout move is always legal, and bots answer with moves the engine accepts.

A new game passes this file before the site may offer it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import GAMES, GameEngine, Outcome, UnknownGame, game_choices, get_game

from .playouts import Playout, random_playout

SEEDS = ("conformance-1", "conformance-2")


def _cases() -> Iterator[Any]:
    for key, game in GAMES.items():
        for seats in range(game.min_seats, game.max_seats + 1):
            for seed in SEEDS:
                yield pytest.param((key, seats, seed), id=f"{key}-{seats}p-{seed}")


_PLAYOUTS: dict[tuple[str, int, str], Playout] = {}


@pytest.fixture(params=list(_cases()))
def playout(request: pytest.FixtureRequest) -> Playout:
    """Each random game is played once and shared by the tests below (they only read it)."""
    key = request.param
    if key not in _PLAYOUTS:
        _PLAYOUTS[key] = random_playout(GAMES[key[0]], key[1], key[2])
    return _PLAYOUTS[key]


def sample(playout: Playout, count: int = 60) -> list[Any]:
    """Positions spread over the whole game (every position would make the suite slow)."""
    states = playout.states[:-1]
    step = max(1, len(states) // count)
    return states[::step]


def dumped(game: GameEngine, state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


# --- The registry ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_game_is_registered_under_its_key_with_complete_metadata(key: str) -> None:
    game = GAMES[key]
    assert isinstance(game, GameEngine)
    assert game.key == key and key == key.lower() and " " not in key
    assert get_game(key) is game
    assert game.label
    assert 1 <= game.min_seats <= game.max_seats
    assert game.default_preset == key and key in game.presets
    assert set(game.preset_labels) == set(game.presets)
    assert game.bot_levels and len(set(game.bot_levels)) == len(game.bot_levels)
    assert isinstance(game.engine_version, int) and game.engine_version >= 1
    for name, rules in game.presets.items():
        data = game.dump_rules(rules)
        assert game.load_rules(json.loads(json.dumps(data))) == rules, name


def test_aliases_and_keys_never_name_two_games() -> None:
    names = [name for game in GAMES.values() for name in (game.key, *game.aliases)]
    assert len(names) == len(set(names))
    for game in GAMES.values():
        for alias in game.aliases:
            assert get_game(alias.upper()) is game


def test_an_unknown_game_key_is_refused_with_a_clear_error() -> None:
    with pytest.raises(UnknownGame) as info:
        get_game("chess")
    assert isinstance(info.value, ValueError)
    assert "chess" in str(info.value)
    for key in GAMES:
        assert key in str(info.value)


def test_choices_come_from_the_registry() -> None:
    assert game_choices() == [(game.key, game.label) for game in GAMES.values()]


# --- Playing --------------------------------------------------------------------------------


def test_random_playout_finishes_with_an_outcome(playout: Playout) -> None:
    game, final = playout.game, playout.final
    assert game.to_act(final) == frozenset()
    assert game.is_over(final)
    outcome = game.outcome(final)
    assert isinstance(outcome, Outcome)
    assert outcome.termination and isinstance(outcome.termination, str)
    assert len(outcome.scores) == playout.seats
    assert set(outcome.winners) <= set(range(playout.seats))
    if outcome.breakdown:
        assert [part["total"] for part in outcome.breakdown] == list(outcome.scores)
    assert Outcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome
    assert game.ctx(final).result == outcome


def test_no_outcome_while_the_game_is_played(playout: Playout) -> None:
    game = playout.game
    for state in sample(playout):
        assert game.to_act(state)
        assert game.outcome(state) is None
        assert not game.is_over(state)


def test_a_finished_game_takes_no_more_actions(playout: Playout) -> None:
    game, final = playout.game, playout.final
    before = dumped(game, final)
    for seat in range(playout.seats):
        assert game.legal(final, seat) == frozenset()
        assert game.timeout_action(final, seat) is None
        for _, notation in playout.actions[-3:]:
            with pytest.raises(ValueError):
                game.apply(final, seat, notation)
    assert dumped(game, final) == before


def test_unfinished_scores_give_every_seat_a_score_and_change_nothing(playout: Playout) -> None:
    """The adjudication scoring: one whole number per seat at every position, the state
    untouched, and at the end the outcome's own scores."""
    game = playout.game
    for state in sample(playout, 20):
        before = dumped(game, state)
        scores = game.unfinished_scores(state)
        assert len(scores) == playout.seats
        assert all(isinstance(score, int) for score in scores)
        assert dumped(game, state) == before
    assert game.unfinished_scores(playout.final) == game.outcome(playout.final).scores


def test_apply_never_changes_its_input(playout: Playout) -> None:
    game = playout.game
    for state, (seat, notation) in zip(playout.states, playout.actions, strict=False):
        before = dumped(game, state)
        game.apply(state, seat, notation)
        assert dumped(game, state) == before


def test_events_are_stored_as_json(playout: Playout) -> None:
    game = playout.game
    for state, (seat, notation) in zip(playout.states, playout.actions, strict=False):
        _, events = game.apply(state, seat, notation)
        stored = [game.dump_event(event) for event in events]
        assert json.loads(json.dumps(stored)) == stored


def test_a_refused_action_changes_nothing(playout: Playout) -> None:
    game = playout.game
    for state in sample(playout, 20):
        acting = min(game.to_act(state))
        idle = [s for s in range(playout.seats) if s not in game.to_act(state)]
        before = dumped(game, state)
        for seat in idle:
            with pytest.raises(ValueError):
                game.apply(state, seat, game.timeout_action(state, acting))
        assert dumped(game, state) == before


def test_state_round_trips_through_json(playout: Playout) -> None:
    game = playout.game
    for state in [*sample(playout), playout.final]:
        data = json.loads(json.dumps(game.dump(state)))
        loaded = game.load(data)
        assert game.dump(loaded) == data
        assert game.to_act(loaded) == game.to_act(state)
        assert game.player_view(loaded, None) == game.player_view(state, None)


def test_play_goes_on_the_same_from_a_loaded_state(playout: Playout) -> None:
    game = playout.game
    middle = len(playout.actions) // 2
    state = game.load(json.loads(dumped(game, playout.states[middle])))
    for seat, notation in playout.actions[middle:]:
        state, _ = game.apply(state, seat, notation)
    assert dumped(game, state) == dumped(game, playout.final)


def test_seeded_replay_rebuilds_the_same_game(playout: Playout) -> None:
    game = playout.game
    ctx = game.ctx(playout.start)
    again = game.new_game(playout.rules, playout.seats, playout.seed)
    assert dumped(game, again) == dumped(game, playout.start)
    rebuilt = game.replay(
        game.rules_of(playout.final), list(ctx.seats), ctx.seed, playout.actions, dealer=ctx.dealer
    )
    assert dumped(game, rebuilt) == dumped(game, playout.final)


def test_another_seed_deals_another_game(playout: Playout) -> None:
    game = playout.game
    other = game.new_game(playout.rules, playout.seats, playout.seed + "-other")
    assert game.player_view(other, 0) != game.player_view(playout.start, 0)


def test_ctx_holds_the_framework_data(playout: Playout) -> None:
    game = playout.game
    for state in sample(playout, 10):
        ctx = game.ctx(state)
        assert len(ctx.seats) == playout.seats
        assert ctx.seed == playout.seed
        assert 0 <= ctx.dealer < playout.seats
        assert ctx.to_act == game.to_act(state)
        assert isinstance(ctx.phase, str)
        assert ctx.result is None
        assert type(ctx).from_dict(json.loads(json.dumps(ctx.to_dict()))) == ctx


# --- Who acts -------------------------------------------------------------------------------


def test_only_seats_in_to_act_owe_a_move_and_the_timeout_move_is_legal(playout: Playout) -> None:
    game = playout.game
    for state in sample(playout):
        to_act = game.to_act(state)
        assert to_act <= set(range(playout.seats))
        for seat in range(playout.seats):
            action = game.timeout_action(state, seat)
            if seat in to_act:
                assert action is not None
                game.apply(state, seat, action)  # raises if the engine refuses it
            else:
                assert action is None


def test_idle_seats_may_try_only_the_declared_out_of_turn_verbs(playout: Playout) -> None:
    game = playout.game
    for state in sample(playout):
        to_act = game.to_act(state)
        for seat in range(playout.seats):
            verbs = game.legal(state, seat)
            if seat in to_act:
                assert verbs, f"seat {seat} must act but has nothing to do"
            else:
                assert verbs <= game.traits.out_of_turn
        assert game.legal(state, None) == frozenset()


def test_idle_seats_are_refused_the_move_that_moves_the_game_on(playout: Playout) -> None:
    game = playout.game
    for state in sample(playout):
        to_act = game.to_act(state)
        for acting in to_act:
            move = game.timeout_action(state, acting)
            for seat in set(range(playout.seats)) - to_act:
                with pytest.raises(ValueError):
                    game.apply(state, seat, move)


def test_several_seats_act_at_once_only_in_games_with_a_prelude(playout: Playout) -> None:
    game = playout.game
    crowded = any(len(game.to_act(state)) > 1 for state in playout.states)
    if not game.traits.has_prelude:
        assert not crowded


def test_seats_outside_the_table_are_refused(playout: Playout) -> None:
    game = playout.game
    state = playout.states[0]
    _, notation = playout.actions[0]
    for outsider in (-1, playout.seats, playout.seats + 5):
        with pytest.raises(ValueError):
            game.apply(state, outsider, notation)


# --- Notation -------------------------------------------------------------------------------


def test_every_played_action_round_trips_through_its_notation(playout: Playout) -> None:
    game = playout.game
    for _, notation in playout.actions:
        action = game.parse_action(notation)
        assert str(action) == notation
        assert game.parse_action(str(action)) == action


def test_nonsense_notation_is_refused() -> None:
    for game in GAMES.values():
        for text in ("", "   ", "fly away", "discard", "\x00"):
            with pytest.raises(ValueError):
                game.parse_action(text)


# --- Hidden information ---------------------------------------------------------------------


def test_views_are_json_and_never_show_the_seed(playout: Playout) -> None:
    game = playout.game
    for state in [*sample(playout, 20), playout.final]:
        for seat in [None, *range(playout.seats)]:
            text = json.dumps(game.player_view(state, seat))
            assert playout.seed not in text


def test_a_view_does_not_change_when_hidden_tiles_are_dealt_afresh(playout: Playout) -> None:
    """What a seat cannot see may be anything: redrawing it must leave its view as it was
    (and the redraw must really change something, or the test proves nothing)."""
    game = playout.game
    rng = random.Random(playout.seed)
    changed = 0
    if not game.traits.hidden_info:
        return
    for state in sample(playout, 20):
        for seat in [None, *range(playout.seats)]:
            other = game.resample_hidden(state, seat, rng)
            changed += dumped(game, other) != dumped(game, state)
            assert game.player_view(other, seat) == game.player_view(state, seat)
            if seat is not None:
                assert game.legal(other, seat) == game.legal(state, seat)
    assert changed


# --- Bots -----------------------------------------------------------------------------------


def test_bots_answer_every_level_with_a_move_the_engine_accepts(playout: Playout) -> None:
    game = playout.game
    for index, state in enumerate(sample(playout, 8)):
        for seat in sorted(game.to_act(state)):
            view = game.player_view(state, seat)
            for level in game.bot_levels:
                rng = random.Random(f"{playout.seed}/{index}/{level}")
                action = game.choose(view, level, rng)
                game.apply(state, seat, action)  # raises if refused
                assert game.parse_action(str(action)) == action
