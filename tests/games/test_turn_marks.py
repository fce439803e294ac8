"""The ring the server draws on the last turn's pieces (``games.presenters.turn_marks``) is the
one game-shell.js draws live: of each face a part gained, the last ones in page order, over
every action of the turn."""

from __future__ import annotations

from collections import Counter

from games.presenters.turn_marks import ringed, split_positions


def test_a_face_gained_rings_the_last_of_its_kind_in_page_order():
    # R5 was on the table (now second); the new meld's R5 comes first in the page.
    faces = ["R5", "B5", "Y5", "R5", "R6", "R7"]
    assert ringed(faces, [Counter({"R5": 1, "B5": 1, "Y5": 1})]) == {1, 2, 3}


def test_two_alike_laid_in_one_turn_are_both_ringed():
    assert ringed(["K3", "K3", "K3", "R9"], [Counter({"K3": 2})]) == {1, 2}


def test_a_tile_taken_then_one_alike_discarded_is_ringed_as_live():
    # The script saw the row lose a B9 (nothing new), then gain one: "B9, the second" is new.
    row = ["R1", "B9", "K4", "B9"]
    assert ringed(row, [Counter({"B9": -1}), Counter({"B9": 1})]) == {3}


def test_a_piece_put_down_then_taken_back_is_ringed_only_if_it_is_back():
    assert ringed(["Y2"], [Counter({"Y2": 1, "J": 1}), Counter({"J": -1})]) == {0}
    assert ringed(["Y2"], []) == frozenset()


def test_positions_split_by_meld():
    assert split_positions(frozenset({1, 3, 4}), [2, 3]) == [{1}, {1, 2}]
