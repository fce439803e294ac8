"""Rules 3 and 4: doublas before play, and declaring the twin of the exposed tile."""

from __future__ import annotations

import json

from games.engine.remi import REMI, legal_verbs, new_game, player_view
from games.engine.remi import events as ev
from games.engine.remi.scenario import position
from games.engine.remi.state import OPEN, PRELUDE
from games.presenters.remi.text import event_line

from .helpers import bag, kinds, play, rack, refused, texts

NAMES = ["Ana", "Bogdan", "Cristi"]
# R5 is only on Ana's rack, K9 only on Bogdan's; the exposed tile is K13.
RACKS = ["R5 R5 B2 Y9 K11", "K9 K9 Y3 B12 R1 K13", "Y6 Y6 B8 K2 R10 J J"]


def prelude(racks=RACKS, **options):
    state = position(racks, phase=PRELUDE, acted=False, **options)
    state.ready = [False] * state.players
    return state


def secret_free(payload, *tiles: str) -> bool:
    text = json.dumps(payload)
    return not any(t in text for t in tiles)


# --- rule 3: doubla -----------------------------------------------------------------------


def test_a_new_game_starts_with_doublas_when_the_option_is_on():
    assert new_game(REMI, 3, "prelude").phase == PRELUDE
    assert new_game(REMI.with_options(doubla=False), 3, "prelude").phase == OPEN


def test_an_offer_shows_its_label_to_everyone_and_its_pair_to_its_owner_only():
    state, events = play(prelude(), (0, "doubla R5 low"))
    assert kinds(events) == [ev.DOUBLA]
    (offer,) = events
    for viewer in (1, 2, None):
        assert offer.to_dict(viewer)["label"] == "low"
        assert secret_free(offer.to_dict(viewer), "R5")
        line = event_line(offer, NAMES, viewer)
        assert line == "Ana offers a doubla (low)."
        view = player_view(state, viewer)
        assert view["offers"][0] == {"label": "low"}
        assert secret_free(view, "R5")
    assert "R5" in event_line(offer, NAMES, 0)
    assert player_view(state, 0)["offers"][0] == {"label": "low", "tile": "R5"}


def test_an_offer_without_a_label_says_nothing_about_the_pair():
    state, events = play(prelude(), (1, "doubla K9"))
    assert texts(events, NAMES, 0) == ["Bogdan offers a doubla."]
    assert player_view(state, 2)["offers"][1] == {"label": None}


def test_two_players_who_both_ask_swap_their_pairs():
    state, events = play(prelude(), (0, "doubla R5 low"), (1, "doubla K9 low"), (0, "exchange 1"))
    assert kinds(events)[-1] == ev.EXCHANGE_ASKED
    assert rack(state, 0) == bag(RACKS[0])  # one side asking swaps nothing
    assert rack(state, 1) == bag(RACKS[1])
    state, events = play(state, (1, "exchange 0"))
    assert kinds(events) == [ev.EXCHANGED]
    assert rack(state, 0) == bag("B2 Y9 K11 K9 K9")
    assert rack(state, 1) == bag("Y3 B12 R1 K13 R5 R5")
    assert rack(state, 2) == bag(RACKS[2])
    # Cristi learns that they exchanged, never what.
    assert texts(events, NAMES, 2) == ["Bogdan and Ana exchanged doublas."]
    assert secret_free(events[0].to_dict(2), "R5", "K9")
    assert secret_free(player_view(state, 2), "R5", "K9")
    # The offers are used up: nobody can ask for them again.
    state, _ = play(state, (2, "doubla Y6 low"))
    refused(state, 2, "exchange 0", "no-offer")


# Ana and Bogdan each hold two pairs; Cristi one.
TWO_PAIRS = ["R5 R5 B2 B2 K11", "K9 K9 Y3 Y3 R1 K13", "Y6 Y6 B8 K2 R10 J J"]


def test_a_player_may_offer_another_doubla_once_the_first_is_exchanged():
    state, _ = play(
        prelude(TWO_PAIRS),
        (0, "doubla R5"),
        (1, "doubla K9"),
        (0, "exchange 1"),
        (1, "exchange 0"),
    )
    assert "doubla" in legal_verbs(state, 0)
    state, events = play(state, (0, "doubla B2 low"), (2, "doubla Y6"))
    assert texts(events, NAMES, 1) == ["Ana offers a doubla (low).", "Cristi offers a doubla."]
    state, _ = play(state, (2, "exchange 0"), (0, "exchange 2"))
    assert rack(state, 0) == bag("K9 K9 Y6 Y6 K11")
    assert rack(state, 2) == bag("B2 B2 B8 K2 R10 J J")
    # Bogdan's second pair may go to the same player again.
    state, _ = play(state, (1, "doubla Y3"), (0, "doubla K9"), (1, "exchange 0"), (0, "exchange 1"))
    assert rack(state, 0) == bag("Y3 Y3 Y6 Y6 K11")
    assert rack(state, 1) == bag("K9 K9 R5 R5 R1 K13")


def test_one_offer_at_a_time_even_with_two_pairs():
    state, _ = play(prelude(TWO_PAIRS), (0, "doubla R5"))
    assert "doubla" not in legal_verbs(state, 0)
    refusal = refused(state, 0, "doubla B2", "doubla-made")
    assert refusal.params == {"open": True}


def test_one_doubla_a_player_under_the_option():
    rules = REMI.with_options(many_doublas=False)
    state, _ = play(
        prelude(TWO_PAIRS, rules=rules),
        (0, "doubla R5"),
        (1, "doubla K9"),
        (0, "exchange 1"),
        (1, "exchange 0"),
    )
    assert "doubla" not in legal_verbs(state, 0)
    refused(state, 0, "doubla B2", "doubla-made")
    refused(state, 1, "doubla R5", "doubla-made")


def test_a_player_who_never_asks_keeps_their_pair():
    state, _ = play(prelude(), (0, "doubla R5"), (1, "doubla K9"), (0, "exchange 1"), (1, "ready"))
    assert rack(state, 0) == bag(RACKS[0])
    assert rack(state, 1) == bag(RACKS[1])


def test_asking_a_ready_player_gives_them_the_chance_to_answer():
    state, _ = play(prelude(), (1, "doubla K9"), (1, "ready"), (0, "doubla R5"))
    assert state.ready[1]
    state, _ = play(state, (0, "exchange 1"))
    assert not state.ready[1]
    state, _ = play(state, (1, "exchange 0"))
    assert rack(state, 0) == bag("B2 Y9 K11 K9 K9")


def test_a_ready_player_cannot_start_an_exchange():
    state, _ = play(prelude(), (0, "doubla R5"), (1, "doubla K9"), (1, "ready"))
    refused(state, 1, "exchange 0", "already-ready")


def test_a_label_follows_the_printed_rules_two_to_nine_low_ten_to_thirteen_and_ones_high():
    racks = ["R5 R5 R1 R1 K13", "K9 K9 B10 B10 Y3", "Y2 Y2 K12 K12 B4"]
    state = prelude(racks)
    refused(state, 0, "doubla R5 high", "doubla-label")
    refused(state, 0, "doubla R1 low", "doubla-label")  # ones are worth most in a set
    refused(state, 1, "doubla K9 high", "doubla-label")  # a dublă mică, whatever 8s were
    refused(state, 1, "doubla B10 low", "doubla-label")
    refused(state, 2, "doubla Y2 high", "doubla-label")
    for seat, offer in [(0, "doubla R5 low"), (0, "doubla R1 high"), (1, "doubla K9 low")]:
        play(prelude(racks), (seat, offer))
    play(prelude(racks), (1, "doubla B10 high"))
    play(prelude(racks), (2, "doubla Y2 low"))
    play(prelude(racks), (2, "doubla K12 high"))


def test_the_even_split_option_keeps_one_to_six_low_seven_to_thirteen_high():
    state = prelude(rules=REMI.with_options(doubla_split="even"))
    refused(state, 0, "doubla R5 high", "doubla-label")
    refused(state, 1, "doubla K9 low", "doubla-label")
    refused(state, 2, "doubla Y6 high", "doubla-label")
    play(state, (2, "doubla Y6 low"))
    play(state, (1, "doubla K9 high"))


def test_games_stored_before_the_split_option_keep_the_even_split():
    stored = REMI.to_dict()
    assert stored["doubla_split"] == "printed"
    del stored["doubla_split"]
    assert type(REMI).from_dict(stored).doubla_split == "even"


def test_a_doubla_needs_two_identical_numbered_tiles():
    state = prelude()
    refused(state, 0, "doubla B2", "no-pair")
    refused(state, 0, "doubla K9", "no-pair")  # Bogdan's pair, not Ana's
    refused(state, 2, "doubla J", "doubla-joly")


def test_exchanging_needs_two_offers():
    state = prelude()
    refused(state, 0, "exchange 1", "no-offer")
    state, _ = play(state, (0, "doubla R5"))
    refused(state, 0, "exchange 1", "no-offer")


def test_doublas_are_refused_when_the_option_is_off():
    state = prelude(rules=REMI.with_options(doubla=False))
    refused(state, 0, "doubla R5", "doubla-off")
    state = new_game(REMI.with_options(doubla=False), NAMES, "off", dealer=2)
    refused(state, 0, "doubla R5", "doubla-off")
    refused(state, 0, "ready", "doubla-off")


def test_play_begins_when_everyone_is_ready_and_doublas_end():
    state = prelude()
    refused(state, 0, "discard B2", "prelude")
    state, events = play(state, (0, "ready"), (1, "ready"))
    assert state.phase == PRELUDE
    refused(state, 1, "ready", "already-ready")
    state, events = play(state, (2, "ready"))
    assert state.phase == OPEN
    assert kinds(events) == [ev.READY, ev.START]
    assert texts(events, NAMES, 1) == ["Cristi is ready.", "Play begins: Ana opens."]
    refused(state, 0, "doubla R5", "prelude-over")
    refused(state, 1, "ready", "prelude-over")


# --- rule 4: the twin of the exposed tile -------------------------------------------------


def test_the_twin_can_be_declared_before_play():
    state, events = play(prelude(), (1, "declare"))
    assert state.declared == [False, True, False]
    assert texts(events, NAMES, 0) == [
        "Bogdan declared the twin of the exposed tile (K13): +25 at the end."
    ]
    refused(state, 1, "declare", "already-declared")
    refused(state, 0, "declare", "no-twin")


def test_the_first_player_declares_before_opening_not_after():
    state = position(["K13 R2 R3", "Y4 Y5"], phase=OPEN, acted=False)
    assert "declare" in legal_verbs(state, 0)
    declared, _ = play(state, (0, "declare"))
    assert declared.declared[0]
    opened, _ = play(state, (0, "discard R2"))
    assert "declare" not in legal_verbs(opened, 0)
    refused(opened, 0, "declare", "declare-too-late")


def test_a_later_player_declares_before_their_first_turn_even_out_of_turn():
    state = position(["R2 R3 R4", "K13 Y4 Y5", "B6 B7"], phase=OPEN, acted=False, wall="R9 R10")
    state, _ = play(state, (0, "discard R2"))
    assert state.turn == 1
    early, _ = play(state, (1, "declare"))  # still before Bogdan's first action
    assert early.declared[1]
    drawn, _ = play(state, (1, "draw"))
    refused(drawn, 1, "declare", "declare-too-late")


def test_a_twin_drawn_later_cannot_be_declared():
    state = position(["R2 R3 R4", "Y4 Y5 Y6"], wall="K13", turn=1, acted=False)
    state, _ = play(state, (1, "draw"))
    assert "K13" in map(str, state.racks[1])
    refused(state, 1, "declare", "declare-too-late")
