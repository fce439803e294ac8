"""The fuzzing suite's budget, its input counter and the error-log watch.

``TEST_SCALE`` (tests/scale.py) multiplies every fuzz test's example count: CI runs the
default (over 10,000 inputs in all); ``TEST_SCALE=quick ./bin/test tests/fuzz`` is a quick look.
The summary line at the end of a run says how many inputs the suite sent and how long it took.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, settings

from tests.scale import SCALE, examples


def fuzz_settings(count: int) -> settings:
    return settings(
        max_examples=examples(count),
        deadline=None,
        derandomize=False,  # new inputs every run: each CI run explores further
        database=None,
        # The fixtures (users, a game, logged-in clients) are made once per test and the
        # examples check that refused input leaves them unchanged, so sharing them is the point.
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )


@dataclass
class Tally:
    inputs: int = 0
    seconds: float = 0.0
    by_test: dict[str, int] = field(default_factory=dict)


TALLY = Tally()


class ErrorLog(logging.Handler):
    """Keeps every record at ERROR or above (a 500, an exception logged anywhere) and every
    record of any level that carries a traceback."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info or record.exc_text:
            self.records.append(record)

    def take(self) -> list[str]:
        taken = [f"{r.name}: {r.getMessage()}" for r in self.records]
        self.records.clear()
        return taken


@pytest.fixture
def error_log() -> Iterator[ErrorLog]:
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


@pytest.fixture
def count_input(request: pytest.FixtureRequest) -> Iterator[object]:
    name = request.node.name
    started = time.monotonic()

    def count() -> None:
        TALLY.inputs += 1
        TALLY.by_test[name] = TALLY.by_test.get(name, 0) + 1

    yield count
    TALLY.seconds += time.monotonic() - started


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TALLY.inputs:
        terminalreporter.write_line(
            f"fuzz: {TALLY.inputs} generated inputs in {TALLY.seconds:.0f} s "
            f"(TEST_SCALE={SCALE:g}): "
            + ", ".join(f"{n} {name}" for name, n in sorted(TALLY.by_test.items()))
        )
