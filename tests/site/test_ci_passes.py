"""CI_PASS: which tests run on only one of .ci/run's two passes (tests/ci_passes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ci_passes import (
    BOTH_PASSES,
    EMBEDDED,
    ONE_PASS,
    PASSES,
    SERVERS,
    chosen_pass,
    left_out,
    pass_of,
)

ROOT = Path(__file__).resolve().parents[2]
TEST_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py"))


@pytest.mark.parametrize(
    "value,expected",
    [({}, None), ({"CI_PASS": ""}, None), ({"CI_PASS": "Servers "}, SERVERS)],
)
def test_the_pass_is_read_from_ci_pass(value, expected):
    assert chosen_pass(value) == expected


def test_an_unknown_pass_is_refused_with_the_choices():
    with pytest.raises(ValueError) as refused:
        chosen_pass({"CI_PASS": "postgres"})
    assert all(name in str(refused.value) for name in PASSES)


def test_concrete_paths():
    assert pass_of("tests/engine/rummikub/test_properties.py") == EMBEDDED
    assert pass_of("tests/engine") == EMBEDDED
    assert pass_of("tests/games/test_hidden_information_review.py") == EMBEDDED
    assert pass_of("tests/fuzz/test_fuzz_http.py") == SERVERS
    assert pass_of("tests/e2e/test_phone_glance.py") == SERVERS
    assert pass_of("tests/e2e/test_two_players_live_game.py") is None
    assert pass_of("tests/games/test_game_act.py") is None
    assert left_out("tests/e2e/test_phone_glance.py", EMBEDDED)
    assert not left_out("tests/e2e/test_phone_glance.py", SERVERS)
    assert not left_out("tests/e2e/test_phone_glance.py", None)
    assert not left_out("tests/e2e/test_two_players_live_game.py", EMBEDDED)


def test_every_test_file_runs_on_at_least_one_pass():
    assert len(TEST_FILES) > 100
    for path in TEST_FILES:
        assert not all(left_out(path, running) for running in PASSES), path


def test_each_rule_names_test_files_that_exist():
    # A renamed folder or file would otherwise quietly run on both passes again.
    for prefix, only, why in ONE_PASS:
        assert only in PASSES and why
        assert any(path.startswith(prefix) for path in TEST_FILES), prefix
    for path in BOTH_PASSES:
        assert path in TEST_FILES, path
