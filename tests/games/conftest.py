"""Games started for tests: Alice (seat 0) and Bob (seat 1), without doublas, so play begins
at once with the opening discard; and ``clock_stack``, the processes that play timeouts."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from games.models import Game
from games.tables import lifecycle
from remi_site.celery import app as celery_app
from tests.conftest import (
    RedisServer,
    database_url_for_subprocesses,
    short_temp_dir,
    subprocess_env,
)
from tests.games.clock_stack import FAST_SWEEPS, ClockStack
from tests.site_processes import (
    SiteProcess,
    celery_beat_command,
    celery_worker_command,
    daphne_command,
    free_port,
)
from tests.smtp_sink import SMTP_BACKEND, Inbox


def two_player_game(alice, bob, **table_options) -> Game:
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False}, **table_options)
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


# The clock tests count turns played by the clock; about one random deal in a thousand gives
# the autoplaying bot a hand it goes out with in its first turns, ending the game before the
# turns a test counts.  They play this one deal instead.
CLOCK_TESTS_SERIES_SEED = "clock-tests-1"


@pytest.fixture
def one_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table started in the test deals from the same series seed."""
    monkeypatch.setattr(lifecycle, "new_series_seed", lambda: CLOCK_TESTS_SERIES_SEED)


@pytest.fixture
def started(alice, bob) -> Game:
    return two_player_game(alice, bob)


@pytest.fixture
def private_game(alice, bob) -> Game:
    return two_player_game(alice, bob, is_public=False)


@pytest.fixture
def clock_stack(
    transactional_db: None, redis_server: RedisServer, smtp_sink: Inbox
) -> Iterator[ClockStack]:
    """daphne, a Celery worker and beat (not started yet: ``clock_stack.start()``) on the
    test database and Redis, sweeping every second, mailing to ``smtp_sink``.

    ``transactional_db``: rows the test writes are committed, so the children see them, and
    the processes stop before the database is flushed."""
    var_dir = short_temp_dir("remi-clocks-")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = subprocess_env(
        DATABASE_URL=database_url_for_subprocesses(),
        REDIS_URL=redis_server.url,
        REMI_VAR_DIR=str(var_dir),
        DEBUG="true",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SITE_URL=url,  # the links in emails lead to this daphne
        EMAIL_BACKEND=SMTP_BACKEND,
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_sink.port),
        **FAST_SWEEPS,
    )
    hostname = f"clock-worker-{os.getpid()}@localhost"
    stack = ClockStack(
        url=url,
        worker_hostname=hostname,
        web=SiteProcess("daphne", daphne_command(port), env, var_dir / "daphne.log"),
        worker=SiteProcess(
            "celery worker",
            celery_worker_command(hostname, concurrency=2),
            env,
            var_dir / "worker.log",
        ),
        beat=SiteProcess("celery beat", celery_beat_command(), env, var_dir / "beat.log"),
    )
    try:
        yield stack
    finally:
        stack.kill_all()
        # Tasks still queued (on-time tasks of later deadlines) would keep the next test's
        # worker busy with games that are gone.
        celery_app.control.purge()
        web_log = stack.web.output()
        print(stack.logs())  # pytest shows it when the test failed
        shutil.rmtree(var_dir, ignore_errors=True)
    # A server error is a bug even when the page would recover from it.
    if "Traceback" in web_log:
        pytest.fail("daphne logged an error; its log is in the captured output above")
