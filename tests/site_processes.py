"""The site's own programs started by tests as child processes: daphne, Celery worker, beat.

Each runs in a session of its own (its own process group), so a test can stop it, or kill
it with SIGKILL the way a crashed machine would, together with every process it forked (a
prefork worker's pool), and start it again later on the same log and settings.  The
environment comes from the caller (``tests.conftest.subprocess_env``): the test database,
the test Redis and whatever settings the test needs.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from remi_site.paths import BASE_DIR


def bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port(count: int = 1) -> int:
    """The first of ``count`` consecutive ports free on this machine, below the kernel's range
    for outgoing connections.  A port from that range (which is where the kernel's own choice
    of a free port comes from) can be taken by any connection the tests, the bench or their
    servers open before daphne listens: a bench run was lost to "Address already in use"."""
    try:
        lowest_outgoing = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        lowest_outgoing = 32768
    for _ in range(100):
        first = random.randrange(10_000, lowest_outgoing - count)
        if all(bindable(first + n) for n in range(count)):
            return first
    raise RuntimeError(f"no {count} free consecutive ports below {lowest_outgoing}")


def daphne_serves(url: str) -> bool:
    """Whether the site at ``url`` answers: a static file, which also proves WhiteNoise
    serves htmx (every live page needs it) and costs no database or broker round trip."""
    try:
        with urllib.request.urlopen(f"{url}/static/vendor/htmx/htmx.min.js", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def daphne_command(port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "daphne",
        "--bind",
        "127.0.0.1",
        "--port",
        str(port),
        "remi_site.asgi:application",
    ]


def celery_worker_command(hostname: str, *, concurrency: int | None = None) -> list[str]:
    """``concurrency=None``: the solo pool (one process, quickest to start); a number: the
    prefork pool of that size, as the Procfile runs it."""
    pool = ["--pool", "solo"] if concurrency is None else ["--concurrency", str(concurrency)]
    return [
        sys.executable,
        "-m",
        "celery",
        "--app",
        "remi_site",
        "worker",
        *pool,
        "--hostname",
        hostname,
        "--without-gossip",
        "--without-mingle",
        "--loglevel",
        "INFO",
    ]


def celery_beat_command() -> list[str]:
    # The schedule file comes from CELERY_BEAT_SCHEDULE_FILE (or REMI_VAR_DIR) in the env.
    return [sys.executable, "-m", "celery", "--app", "remi_site", "beat", "--loglevel", "INFO"]


@dataclass
class SiteProcess:
    """One program of the site; ``start`` may be called again after ``stop`` or ``kill``."""

    name: str
    command: Sequence[str]
    env: Mapping[str, str]
    log: Path
    popen: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def start(self) -> SiteProcess:
        if self.running:
            raise RuntimeError(f"{self.name} is already running")
        # Appending: a restarted program's log follows its previous life's.
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                list(self.command),
                cwd=BASE_DIR,
                env=dict(self.env),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def exited(self) -> bool:
        """Started, and its main process has ended (crashed, or was stopped)."""
        return self.popen is not None and self.popen.poll() is not None

    def kill(self) -> None:
        """SIGKILL the whole process group at once: no clean-up, no acknowledgements."""
        self.stop(sig=signal.SIGKILL)

    def stop(self, *, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
        """Signal the whole group (children may outlive a main process that already died)
        and wait for the main process; SIGKILL whatever is left after ``timeout``."""
        self.send(sig)
        self.wait_stopped(timeout=timeout)

    def send(self, sig: int) -> None:
        if self.popen is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)

    def wait_stopped(self, *, timeout: float = 20) -> None:
        if self.popen is None:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=timeout)
        self.send(signal.SIGKILL)
        self.popen.wait(timeout=10)

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def kill_together(processes: Sequence[SiteProcess]) -> None:
    """SIGKILL several programs at the same moment, as when their machine dies."""
    for process in processes:
        process.send(signal.SIGKILL)
    for process in processes:
        process.wait_stopped()
