"""The processes that play timeouts, for the real-stack clock tests.

daphne, a Celery worker (prefork, as the Procfile runs it) and Celery beat, each a child
process on the test database and the test Redis, with the sweeps running every second and
mail going to a real SMTP sink.  A test starts what it needs (``start``), may SIGKILL the
worker and beat and start them again later (``kill_celery`` / ``start_celery``); the fixture
stops whatever is left, even when the test failed, and prints the logs' tails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from remi_site.celery import app as celery_app
from tests.conftest import wait_for
from tests.site_processes import SiteProcess, daphne_serves, kill_together

# Sweeps every second, so a due clock is found within a second or two of its deadline; a
# claim left by a killed worker comes back after a short lease.
FAST_SWEEPS = {
    "DEADLINE_SWEEP_SECONDS": "1",
    "REMINDER_SWEEP_SECONDS": "1",
    "BOT_SWEEP_SECONDS": "1",
    "CLOCK_LEASE_SECONDS": "3",
    "BOT_MOVE_DELAY_MS": "0",
}

# Bounds for waits that cross processes; a loaded CI machine is slow, never this slow.
START_TIMEOUT = 60
PLAY_TIMEOUT = 30


@dataclass
class ClockStack:
    url: str
    worker_hostname: str
    web: SiteProcess
    worker: SiteProcess
    beat: SiteProcess

    @property
    def processes(self) -> list[SiteProcess]:
        return [self.web, self.worker, self.beat]

    def start(self, *, web: bool = True) -> None:
        """Start the programs (all at once, they take seconds each) and wait until they
        serve: daphne answers HTTP, the worker answers a ping over the broker."""
        if web:
            self.web.start()
        self.start_celery(wait=False)
        if web:
            self.wait_for(
                lambda: daphne_serves(self.url), timeout=START_TIMEOUT, what=f"daphne at {self.url}"
            )
        self.wait_for_worker()

    def start_celery(self, *, wait: bool = True) -> None:
        self.worker.start()
        self.beat.start()
        if wait:
            self.wait_for_worker()

    def kill_celery(self) -> None:
        """SIGKILL the worker (with its pool) and beat: no warm shutdown, no acks."""
        kill_together([self.worker, self.beat])

    def kill_all(self) -> None:
        # No clean shutdown needed: the test's data and queue are thrown away after it.
        kill_together(self.processes)

    def wait_for_worker(self) -> None:
        self.wait_for(
            lambda: celery_app.control.ping(destination=[self.worker_hostname], timeout=0.5),
            timeout=START_TIMEOUT,
            what=f"the worker {self.worker_hostname} to answer a ping",
        )

    def wait_for(self, condition: Any, *, what: str, timeout: float = PLAY_TIMEOUT) -> Any:
        """``tests.conftest.wait_for``, failing at once, with the logs, if a program that was
        started died on its own."""

        def alive_and() -> Any:
            dead = [p.name for p in self.processes if p.exited()]
            if dead:
                pytest.fail(f"{', '.join(dead)} exited while waiting for {what}:\n{self.logs()}")
            return condition()

        try:
            return wait_for(alive_and, timeout=timeout, interval=0.1, what=what)
        except pytest.fail.Exception:
            print(self.logs())
            raise

    def finished_tasks(self, task_name: str) -> list[str]:
        """What each finished run of ``task_name`` returned, from the worker's log (Celery
        logs every task's result, even with results ignored)."""
        pattern = re.compile(rf"Task {re.escape(task_name)}\[[^\]]+\] succeeded in [\d.]+s: (.*)")
        return pattern.findall(self.worker.output())

    def failed_tasks(self, task_name: str) -> list[str]:
        """The worker's log lines for runs of ``task_name`` that raised."""
        marker = re.compile(rf"Task {re.escape(task_name)}\[[^\]]+\] raised")
        return [line for line in self.worker.output().splitlines() if marker.search(line)]

    def logs(self, tail: int = 6000) -> str:
        return "\n".join(
            f"--- {p.name} log ---\n{p.output()[-tail:]}" for p in self.processes if p.popen
        )
