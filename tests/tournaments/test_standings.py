"""Standings: points by place, and each tiebreak deciding a case of its own."""

from __future__ import annotations

from tournaments.formats.standings import MatchResult, StandingsRules, match_points, standings


def two(a, b, winner=None, scores=(0, 0)):
    places = (1, 1) if winner is None else ((1, 2) if winner == a else (2, 1))
    return MatchResult((a, b), places, scores)


def order(rows):
    return [row.player for row in rows]


def test_points_by_place_and_shared_places():
    rules = StandingsRules()
    assert match_points(two("a", "b", "a"), rules) == [2, 0]
    assert match_points(two("a", "b"), rules) == [1, 1]
    four = MatchResult(("a", "b", "c", "d"), (1, 2, 2, 4), (0, 0, 0, 0))
    assert match_points(four, rules) == [6, 3, 3, 0]
    custom = StandingsRules(place_points={3: (5, 2, 0)})
    assert match_points(MatchResult(("a", "b", "c"), (1, 2, 3), (0, 0, 0)), custom) == [5, 2, 0]


def test_match_points_decide_first():
    rows = standings([two("a", "b", "b", scores=(90, 10))])
    assert order(rows) == ["b", "a"]
    assert rows[0].match_points == 2


def test_game_score_decides_level_points():
    rows = standings([two("a", "x", "a", (50, 0)), two("b", "y", "b", (80, 0))])
    assert order(rows)[:2] == ["b", "a"]
    lower = standings(
        [two("a", "x", "a", (50, 0)), two("b", "y", "b", (80, 0))],
        StandingsRules(higher_score_better=False),
    )
    assert order(lower)[:2] == ["a", "b"]


def test_wins_decide_level_points_and_score():
    # a: a win and a loss (2 points); b: two draws (2 points); same total score.
    results = [
        two("a", "x", "a", (10, 0)),
        two("a", "y", "y", (0, 10)),
        two("b", "z", None, (5, 5)),
        two("b", "w", None, (5, 5)),
    ]
    rows = {row.player: row for row in standings(results)}
    assert rows["a"].match_points == rows["b"].match_points == 2
    assert rows["a"].game_score == rows["b"].game_score == 10
    assert rows["a"].wins == 1 and rows["b"].wins == 0
    assert order(standings(results)).index("a") < order(standings(results)).index("b")


def test_head_to_head_decides_level_players():
    # a and b each win one and lose one with the same scores; a beat b.
    results = [
        two("a", "b", "a", (10, 0)),
        two("b", "c", "b", (10, 0)),
        two("a", "c", "c", (0, 10)),
    ]
    rows = standings(results, players=["c", "b", "a"])
    # All three: 2 points, 10 score, 1 win; head to head is a cycle: all level, so the
    # Buchholz is level too and they share rank 1 in the given order.
    assert [r.rank for r in rows] == [1, 1, 1]
    assert order(rows) == ["c", "b", "a"]
    # Without the cycle, head to head decides: b and a level on the first three, a beat b.
    decided = [
        two("a", "b", "a", (10, 0)),
        two("b", "c", "b", (10, 0)),
        two("a", "d", "d", (0, 10)),
    ]
    rows = {row.player: row for row in standings(decided, players=["b", "a"])}
    assert rows["a"].head_to_head == 2 and rows["b"].head_to_head == 0
    assert rows["a"].rank < rows["b"].rank


def test_opponents_score_decides_last():
    # a and b both beat one player; a's opponent went on to win twice, b's lost twice.
    results = [
        two("a", "x", "a", (10, 0)),
        two("b", "y", "b", (10, 0)),
        two("x", "p", "x", (10, 0)),
        two("x", "q", "x", (10, 0)),
        two("y", "r", "r", (0, 10)),
        two("y", "s", "s", (0, 10)),
    ]
    rows = {row.player: row for row in standings(results)}
    assert rows["a"].head_to_head == rows["b"].head_to_head == 0
    assert rows["a"].opponents_score == 4 and rows["b"].opponents_score == 0
    assert rows["a"].rank < rows["b"].rank


def test_byes_count_points_but_no_games():
    rows = {r.player: r for r in standings([two("a", "b", "a")], byes=["c"])}
    assert rows["c"].match_points == 2 and rows["c"].played == 0 and rows["c"].byes == 1
    assert rows["c"].opponents_score == 0


def test_players_without_results_are_listed():
    rows = standings([two("a", "b", "a")], players=["z", "a", "b"])
    # z and b are level on 0 points; b's opponent scored 2, z has none.
    assert order(rows) == ["a", "b", "z"]
    assert rows[-1].played == 0 and rows[-1].match_points == 0
