"""The development supervisor: restarts a crashed process with back-off, stops all on Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from remi_site.paths import BASE_DIR
from remi_site.supervisor import Backoff, ProcfileError, parse_procfile
from tests.conftest import process_tree, stop_process_group, subprocess_env, wait_for


def test_procfile_lines_are_read_in_order_skipping_blanks_and_comments():
    text = "# dev\nweb: exec daphne app\n\nworker: exec celery worker --x 'a b'\n"
    assert parse_procfile(text) == {
        "web": "exec daphne app",
        "worker": "exec celery worker --x 'a b'",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("web exec daphne\n", "line 1 is not 'name: command'"),
        ("web: a\nweb: b\n", "line 2 names 'web' a second time"),
        ("web:\n", "line 1 is not 'name: command'"),
    ],
)
def test_a_bad_procfile_line_is_named(text, message):
    with pytest.raises(ProcfileError, match=message):
        parse_procfile(text)


def test_backoff_doubles_on_quick_crashes_up_to_the_maximum_and_resets_after_a_stable_run():
    backoff = Backoff(first=1, maximum=5, stable_after=60)
    delays = []
    delay = None
    for _ in range(5):
        delay = backoff.next_delay(delay, ran_for=0.5)
        delays.append(delay)
    assert delays == [1, 2, 4, 5, 5]
    assert backoff.next_delay(5, ran_for=61) == 1


def command_line(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:  # gone, or a zombie waiting to be reaped
        return ""


@pytest.fixture
def supervised(tmp_path: Path):
    """The supervisor as ./bin/run starts it, on a Procfile of small shell programs."""
    procfile = tmp_path / "Procfile"
    procfile.write_text(
        # Exits at once, every time: must be restarted with growing pauses.
        "crash: echo crashing; exit 3\n"
        # Forks a child and waits: both must stop on Ctrl-C.
        "steady: sleep 300 & echo steady up; wait\n"
    )
    log = tmp_path / "supervisor.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "remi_site.supervisor", "--procfile", str(procfile)],
            cwd=BASE_DIR,
            env=subprocess_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process, log
    finally:
        stop_process_group(process, sig=signal.SIGKILL)


def test_a_crashing_process_is_restarted_with_growing_pauses_while_others_keep_running(
    supervised,
):
    process, log = supervised
    wait_for(
        lambda: "restarting in 2s" in log.read_text(),
        timeout=20,
        what="the second restart of the crashing program",
    )
    text = log.read_text()
    assert "crash  | exited (rc=3); restarting in 1s" in text
    assert text.count("steady | started") == 1
    assert text.count("crash  | started") >= 2
    assert process.poll() is None


@pytest.mark.parametrize(
    "sig",
    [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
    ids=["ctrl-c", "terminate", "terminal-closed"],
)
def test_stopping_stops_every_process_and_their_children(supervised, sig):
    process, log = supervised
    wait_for(lambda: "steady up" in log.read_text(), timeout=20, what="the steady program")
    # The background child is a copy of the shell until it has exec'd sleep (later, on a
    # busy machine): wait for the sleep itself.
    wait_for(
        lambda: any(command_line(p).startswith("sleep") for p in process_tree(process.pid)),
        timeout=20,
        what="the steady program's child",
    )
    family = process_tree(process.pid)
    process.send_signal(sig)
    assert process.wait(timeout=30) == 0
    survivors = [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert survivors == []
    assert "steady | stopped (rc=" in log.read_text()


def test_an_unknown_program_name_is_refused_naming_what_the_procfile_has(tmp_path):
    procfile = tmp_path / "Procfile"
    procfile.write_text("web: exec true\n")
    result = subprocess.run(
        [sys.executable, "-m", "remi_site.supervisor", "--procfile", str(procfile), "wrok"],
        cwd=BASE_DIR,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "not in" in result.stderr
    assert "wrok (it has web)" in result.stderr
