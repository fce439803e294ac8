"""TEST_SCALE, the one setting for every property and fuzz test's example count."""

from __future__ import annotations

import pytest

from tests.scale import LEVELS, parse


@pytest.mark.parametrize(
    "text,scale",
    [("ci", 1.0), ("", 1.0), ("quick", 0.05), ("FULL", 10.0), (" 3 ", 3.0), ("0.5", 0.5)],
)
def test_levels_and_numbers(text, scale):
    assert parse(text) == scale


@pytest.mark.parametrize("text", ["0", "-2", "nightly", "nan", "inf", "1x"])
def test_anything_else_is_refused_with_the_choices(text):
    with pytest.raises(ValueError) as refused:
        parse(text)
    assert all(level in str(refused.value) for level in LEVELS)
