"""The rating maths alone: finishing places from scores, and openskill's update."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.rating_chart import chart
from tournaments.rating_maths import NEW_PLAYER, Skill, places_from_scores, rate


def test_equal_scores_share_a_place_and_the_next_place_is_skipped():
    assert places_from_scores([10, -5, 10, 0]) == [1, 4, 1, 3]
    assert places_from_scores([0, 0]) == [1, 1]
    assert places_from_scores([-50, 122, -35, -37]) == [4, 1, 2, 3]


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=4))
def test_a_place_counts_the_players_who_scored_more(scores):
    places = places_from_scores(scores)
    ordered = sorted(scores, reverse=True)
    for score, place in zip(scores, places, strict=True):
        assert place == ordered.index(score) + 1


def test_a_new_player_reads_1000_and_the_winner_gains_what_the_loser_loses():
    assert NEW_PLAYER.shown == 1000
    winner, loser = rate([NEW_PLAYER, NEW_PLAYER], [1, 2])
    assert winner.shown > 1000 > loser.shown
    assert abs((winner.mu - NEW_PLAYER.mu) + (loser.mu - NEW_PLAYER.mu)) < 1e-9
    assert winner.sigma < NEW_PLAYER.sigma and loser.sigma < NEW_PLAYER.sigma


def test_beating_a_stronger_player_gains_more_than_beating_an_equal_one():
    strong = Skill(35.0, 4.0)
    against_strong, _ = rate([NEW_PLAYER, strong], [1, 2])
    against_equal, _ = rate([NEW_PLAYER, NEW_PLAYER], [1, 2])
    assert against_strong.mu > against_equal.mu


@given(st.lists(st.integers(-200, 200), min_size=2, max_size=4))
def test_with_equal_ratings_a_better_place_never_ends_lower(scores):
    places = places_from_scores(scores)
    after = rate([NEW_PLAYER] * len(scores), places)
    for i, a in enumerate(after):
        assert a.sigma <= NEW_PLAYER.sigma
        for j, b in enumerate(after):
            if places[i] < places[j]:
                assert a.mu > b.mu
            elif places[i] == places[j]:
                assert abs(a.mu - b.mu) < 1e-9


def test_the_chart_runs_from_the_first_rating_to_the_last_inside_its_box():
    drawn = chart([1000, 1040, 990, 1070])
    assert drawn is not None
    points = [tuple(map(float, p.split(","))) for p in drawn.points.split()]
    assert len(points) == 4
    assert (drawn.low, drawn.high, drawn.first, drawn.last, drawn.games) == (
        990,
        1070,
        1000,
        1070,
        3,
    )
    xs = [x for x, _ in points]
    assert xs == sorted(xs) and xs[0] == drawn.left and xs[-1] == drawn.width - 8
    ys = [y for _, y in points]
    # The highest rating is drawn at the top of the box, the lowest at the bottom.
    assert ys[3] == drawn.top and ys[2] == drawn.bottom_y
    assert chart([1000]) is None
    flat = chart([1000, 1000])
    assert flat is not None
    assert len({point.split(",")[1] for point in flat.points.split()}) == 1


def test_players_tied_for_first_share_and_stay_above_the_third():
    tied = rate([NEW_PLAYER] * 4, [3, 1, 1, 4])
    assert tied[1] == tied[2]
    assert tied[1].mu > tied[0].mu > tied[3].mu
    # Sharing is the mean of the two ways the tie could have gone.
    one_way = rate([NEW_PLAYER] * 4, [3, 1, 2, 4])
    other_way = rate([NEW_PLAYER] * 4, [3, 2, 1, 4])
    assert abs(tied[1].mu - (one_way[1].mu + other_way[1].mu) / 2) < 1e-9
    assert abs(tied[0].mu - one_way[0].mu) < 1e-9
