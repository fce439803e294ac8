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


def value_for(field: forms.Field) -> st.SearchStrategy[str]:
    """A value a page could have sent for ``field`` some of the time, garbage the rest."""
    plausible: list[st.SearchStrategy[str]] = []
    choices = getattr(field, "choices", None)
    if choices:
        plausible.append(st.sampled_from([str(value) for value, _ in choices] or [""]))
    if isinstance(field, forms.IntegerField):
        plausible.append(st.integers(min_value=-5, max_value=10_000).map(str))
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


query_values = st.one_of(any_text, st.lists(any_text, min_size=2, max_size=3))
query_keys = st.one_of(
    st.sampled_from(
        ["page", "step", "version", "table", "seen", "game", "next", "q", "preset", "seed"]
    ),
    any_text.filter(bool),
)
query = st.dictionaries(query_keys, query_values, max_size=4)
