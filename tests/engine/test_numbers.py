"""Every number from outside is read by one function, ASCII digits only (hostile probe, fault 1:
``str.isdigit()`` accepted ``²`` and other scripts' digits, then ``int()`` raised)."""

from __future__ import annotations

import pytest

from games.engine.core.numbers import parse_natural

# Superscripts, Arabic-Indic, Devanagari, Tamil, mathematical bold, circled, a fraction.
UNICODE_DIGITS = [
    "\u00b2",
    "\u2075",
    "\u0663",
    "\u06f7",
    "\u0967",
    "\u0beb",
    "\U0001d7d5",
    "\u2460",
    "3\u00b2",
    "\u00bd",
]


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_parse_natural_refuses_digits_outside_ascii(text):
    assert text.isdigit() or text == "½"  # what fooled the old checks
    assert parse_natural(text) is None


@pytest.mark.parametrize(
    ("text", "maximum", "expected"),
    [("0", None, 0), ("42", None, 42), ("007", None, 7), ("12", 11, None), ("", None, None)],
)
def test_parse_natural_reads_ascii_digits_only_up_to_the_maximum(text, maximum, expected):
    assert parse_natural(text, maximum=maximum) == expected


def test_parse_natural_caps_the_length_so_the_number_fits_a_database_column():
    assert parse_natural("9" * 18) == 10**18 - 1
    assert parse_natural("9" * 19) is None
    assert parse_natural(" 5") is None and parse_natural("-5") is None and parse_natural(5) is None
