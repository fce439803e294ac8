"""Run the Procfile's processes for development and restart any that dies, with back-off.

``./bin/run`` starts the site through this module. A process that exits on its own (a Celery
worker killed by the out-of-memory killer, daphne crashing on a syntax error while you edit)
is started again after a pause that doubles with each quick crash, so a broken one does not
spin; the others keep running. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops every process: each
runs in its own process group, which is sent SIGTERM, then SIGKILL if it has not gone in time,
so no child (Celery's pool processes included) outlives the supervisor.

    python -m remi_site.supervisor --procfile Procfile web worker beat redis
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

# SIGHUP too: closing the terminal must not leave the programs (in their own sessions, which
# the terminal does not reach) running without the supervisor.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
PROCFILE_LINE = re.compile(r"^(?P<name>[A-Za-z0-9_-]+):\s*(?P<command>\S.*)$")


class ProcfileError(ValueError):
    pass


def parse_procfile(text: str) -> dict[str, str]:
    """``name: command`` lines; blank lines and ``#`` comments are skipped."""
    programs: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = PROCFILE_LINE.match(stripped)
        if match is None:
            raise ProcfileError(f"Procfile line {number} is not 'name: command': {line!r}")
        if match["name"] in programs:
            raise ProcfileError(f"Procfile line {number} names {match['name']!r} a second time")
        programs[match["name"]] = match["command"]
    return programs


@dataclass(frozen=True)
class Backoff:
    """How long to wait before restarting a process that exited after running ``ran_for``."""

    first: float = 1.0
    maximum: float = 30.0
    # A process that ran this long before exiting counts as healthy again: back to ``first``.
    stable_after: float = 60.0

    def next_delay(self, previous: float | None, ran_for: float) -> float:
        if previous is None or ran_for >= self.stable_after:
            return self.first
        return min(previous * 2, self.maximum)


@dataclass
class Program:
    name: str
    command: str
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    delay: float | None = None  # the last back-off used; None until the first crash
    restart_at: float | None = None


class Supervisor:
    def __init__(
        self,
        programs: dict[str, str],
        *,
        backoff: Backoff | None = None,
        stop_timeout: float = 15.0,
        cwd: Path | None = None,
        out: IO[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.programs = [Program(name, command) for name, command in programs.items()]
        self.backoff = backoff or Backoff()
        self.stop_timeout = stop_timeout
        self.cwd = cwd
        self.out = out or sys.stdout
        self.clock = clock
        self.stopping = threading.Event()
        self._print_lock = threading.Lock()
        self._width = max((len(name) for name in programs), default=0)

    # --- output -------------------------------------------------------------------------

    def say(self, name: str, text: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {name.ljust(self._width)} | {text}\n"
        with self._print_lock:
            self.out.write(line)
            self.out.flush()

    def _relay(self, name: str, stream: IO[bytes]) -> None:
        with stream:
            for raw in iter(stream.readline, b""):
                self.say(name, raw.decode(errors="replace").rstrip("\n"))

    # --- processes ----------------------------------------------------------------------

    def start(self, program: Program) -> None:
        program.process = subprocess.Popen(
            ["/bin/sh", "-c", program.command],
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            # Its own process group: Ctrl-C reaches only the supervisor, which then stops the
            # whole group, children the program forked included.
            start_new_session=True,
        )
        program.started_at = self.clock()
        program.restart_at = None
        assert program.process.stdout is not None
        threading.Thread(
            target=self._relay, args=(program.name, program.process.stdout), daemon=True
        ).start()
        self.say(program.name, f"started (pid {program.process.pid})")

    def _signal_group(self, program: Program, sig: int) -> None:
        if program.process is not None:
            # The group outlives its leader while forked children remain.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(program.process.pid, sig)

    def check(self) -> None:
        """Notice exits and schedule restarts; start what is due. One pass of the loop."""
        now = self.clock()
        for program in self.programs:
            process = program.process
            if process is not None and program.restart_at is None:
                code = process.poll()
                if code is None:
                    continue
                # Children it leaves behind (Celery's pool) must not outlive it.
                self._signal_group(program, signal.SIGKILL)
                program.delay = self.backoff.next_delay(program.delay, now - program.started_at)
                program.restart_at = now + program.delay
                self.say(
                    program.name,
                    f"exited (rc={code}); restarting in {program.delay:g}s",
                )
            if program.restart_at is not None and now >= program.restart_at:
                self.start(program)

    def stop_all(self) -> None:
        running = [p for p in self.programs if p.process is not None]
        for program in running:
            self._signal_group(program, signal.SIGTERM)
        deadline = time.monotonic() + self.stop_timeout
        for program in running:
            assert program.process is not None
            try:
                program.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(program.name, "did not stop in time; killing it")
            # SIGKILL the group either way: a leader may exit before children it forked.
            self._signal_group(program, signal.SIGKILL)
            program.process.wait()
            self.say(program.name, f"stopped (rc={program.process.returncode})")

    def run(self, *, poll_interval: float = 0.2) -> int:
        def request_stop(signum: int, frame: object) -> None:
            self.stopping.set()

        previous = {sig: signal.signal(sig, request_stop) for sig in STOP_SIGNALS}
        try:
            for program in self.programs:
                self.start(program)
            while not self.stopping.wait(poll_interval):
                self.check()
            self.say("supervisor", "stopping every process")
        finally:
            self.stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--procfile", type=Path, default=Path("Procfile"))
    parser.add_argument("names", nargs="*", help="which Procfile entries to run (default: all)")
    args = parser.parse_args(argv)
    try:
        programs = parse_procfile(args.procfile.read_text())
    except (OSError, ProcfileError) as error:
        parser.error(str(error))
    names = args.names or list(programs)
    unknown = [name for name in names if name not in programs]
    if unknown:
        parser.error(f"not in {args.procfile}: {', '.join(unknown)} (it has {', '.join(programs)})")
    chosen = {name: programs[name] for name in names}
    return Supervisor(chosen, cwd=args.procfile.resolve().parent).run()


if __name__ == "__main__":
    sys.exit(main())
