"""Hostile input: what a probe, a broken client or a curious player might send.

Every strategy mixes plausible values (so the input reaches deep code, not just the first
check) with text from every Unicode category, huge and empty values and repeated keys.
"""

from __future__ import annotations

from typing import Any

from django import forms
from hypothesis import strategies as st

# Words the site itself understands, so generated input often gets past the first parser.
VOCABULARY = [
    "draw", "take", "exposed", "discard", "meld", "add", "pick", "swap", "into", "doubla",
    "exchange", "declare", "ready", "undo", "notation", "high", "low", "|", "J", "J=R4",
    "R1", "R13", "Y7", "B12", "K5", "R5", "0", "1", "2", "3", "-1", "99", "²", "٣", "1e9",
    "true", "false", "null", "on", "None", "remi", "rummikub", "live", "slow", "public",
    "private", "<script>", "'; DROP TABLE games_game; --", "{{ 7*7 }}", "%s", "../", "\x00",
]  # fmt: skip

huge_text = st.builds(
    lambda piece, times: piece * times,
    st.text(min_size=1, max_size=4),
    st.integers(min_value=1_000, max_value=30_000),
)
any_text = st.one_of(
    st.text(max_size=40),  # every category Hypothesis knows, surrogates aside
    st.text(st.characters(codec="utf-8"), max_size=12),
    st.sampled_from(VOCABULARY),
    st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=8).map(" ".join),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    huge_text,
    st.just(""),
)


# The zeros of digit sets that ``int()`` reads as numbers: Arabic-Indic, Extended
# Arabic-Indic, Devanagari, Bengali, Thai, fullwidth and mathematical bold digits.
DIGIT_ZEROS = (0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0xFF10, 0x1D7CE)


def _in_digits(number: int, zero: int, ascii_at: int) -> str:
    """``number`` written in another script's digits, one of them left in ASCII if
    ``ascii_at`` points at it (so mixed numbers like "1٢" come up too)."""
    text = str(number)
    return "".join(d if i == ascii_at else chr(zero + int(d)) for i, d in enumerate(text))


# Small numbers (the versions, seats and meld indexes a page sends) in other digits.
other_digits = st.builds(
    _in_digits,
    st.one_of(st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=40)),
    st.sampled_from(DIGIT_ZEROS),
    st.integers(min_value=-1, max_value=1),
)


def is_ascii_number(value: object) -> bool:
    """Whether ``value`` (or every value of a repeated key) is written in ASCII digits, as
    the site's pages write numbers."""
    values = value if isinstance(value, list) else [value]
    return all(isinstance(v, str) and v.strip().lstrip("-").isascii() for v in values)


def number_fields(form_class: type[forms.Form]) -> list[str]:
    return [
        name
        for name, field in form_class.base_fields.items()
        if isinstance(field, (forms.IntegerField, forms.FloatField))
    ]


def value_for(field: forms.Field) -> st.SearchStrategy[str]:
    """A value a page could have sent for ``field`` some of the time, garbage the rest."""
    plausible: list[st.SearchStrategy[str]] = []
    choices = getattr(field, "choices", None)
    if choices:
        plausible.append(st.sampled_from([str(value) for value, _ in choices] or [""]))
    if isinstance(field, (forms.IntegerField, forms.FloatField)):
        plausible.append(st.integers(min_value=-5, max_value=10_000).map(str))
        plausible.append(other_digits)
    if isinstance(field, forms.BooleanField):
        plausible.append(st.sampled_from(["on", "true", "", "false"]))
    return st.one_of(*plausible, any_text) if plausible else any_text


def form_data(
    form_class: type[forms.Form], extra_fields: list[str] = ()
) -> st.SearchStrategy[dict[str, Any]]:
    """POST data for ``form_class``: each field present or not, sometimes repeated, plus
    keys no page sends."""
    fields = dict(form_class.base_fields)
    known = {
        name: st.one_of(value_for(field), st.lists(value_for(field), min_size=2, max_size=3))
        for name, field in fields.items()
    }
    for name in extra_fields:
        known.setdefault(name, any_text)
    return st.fixed_dictionaries({}, optional={**known, "csrfmiddlewaretoken": any_text}).flatmap(
        lambda data: st.dictionaries(any_text.filter(bool), any_text, max_size=3).map(
            lambda junk: {**junk, **data}
        )
    )


query_values = st.one_of(any_text, other_digits, st.lists(any_text, min_size=2, max_size=3))
query_keys = st.one_of(
    st.sampled_from(
        ["page", "step", "version", "table", "seen", "game", "next", "q", "preset", "seed"]
    ),
    any_text.filter(bool),
)
query = st.dictionaries(query_keys, query_values, max_size=4)
