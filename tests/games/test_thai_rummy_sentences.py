"""Every code Thai Rummy's engine speaks in has a sentence: each refusal a rule can give and
each event of the log (a code worded as itself would be a missing sentence)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.engine.thai_rummy import turns
from games.presenters.thai_rummy import text

ENGINE = Path(turns.__file__).resolve().parents[1]
NAMES = ["Ana", "Bogdan"]


def _raised_codes() -> set[str]:
    """The codes of every IllegalAction raised by Thai Rummy's turns and of every meld fault
    (Thai Rummy has no jokers and no short-meld option, so those faults never arise)."""
    codes = set()
    for path in (ENGINE / "thai_rummy" / "turns.py", ENGINE / "card_melds.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") in ("IllegalAction", "InvalidMeld")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                codes.add(node.args[0].value)
    return codes - {"bad-joker-reading", "too-many-jokers", "meld-too-long"}


@pytest.mark.parametrize("code", sorted(_raised_codes()))
def test_every_refusal_has_a_sentence(code):
    sentence = text.refusal_text(code, {"cards": ["QS"], "index": 2})
    assert code not in sentence and sentence.endswith(".")


EVENTS = [
    {"code": "drew", "seat": 0, "params": {}, "secret": {"card": "QS"}},
    {"code": "took", "seat": 0, "params": {"cards": ["7H", "9C"]}},
    {"code": "melded", "seat": 0, "params": {"meld": "5H 6H 7H", "index": 1}},
    {"code": "laid-off", "seat": 1, "params": {"cards": ["8H"], "index": 1, "meld": "5H 6H 7H 8H"}},
    {"code": "discarded", "seat": 1, "params": {"card": "8D"}},
    {"code": "discard-fitted", "seat": 1, "params": {"card": "8D", "index": 1}},
    {"code": "passed", "seat": 0, "params": {"passes": 1}},
    {"code": "went-out", "seat": 0, "params": {"fed_by": 1}},
    {
        "code": "game-over",
        "seat": None,
        "params": {"reason": "out", "winner": 0, "scores": [90, -40]},
    },
    {
        "code": "game-over",
        "seat": None,
        "params": {"reason": "passed", "winner": None, "scores": [0, 0]},
    },
]


@pytest.mark.parametrize("event", EVENTS, ids=[e["code"] for e in EVENTS])
def test_every_event_has_a_sentence(event):
    for viewer in (None, 0, 1):
        sentence = text.event_text(event, NAMES, viewer)
        assert sentence != event["code"] and sentence.endswith((".", "!"))
    assert "queen of spades" in text.event_text(EVENTS[0], NAMES, 0)
    assert "queen of spades" not in text.event_text(EVENTS[0], NAMES, 1)


def test_the_sentences_say_what_happened():
    fitted = text.event_text(EVENTS[5], NAMES, None)
    assert "eight of diamonds" in fitted and "Bogdan loses 50 points" in fitted
    out = text.event_text(EVENTS[7], NAMES, None)
    assert "Ana discarded the last card face down" in out and "Bogdan" in out
    assert text.game_over_text(EVENTS[8]["params"], NAMES) == "Ana went out and scores 90 points."
