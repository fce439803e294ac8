"""Where the project keeps its files; shared by settings and the process entry points."""

from __future__ import annotations

from pathlib import Path

from remi_site.env import env_path

BASE_DIR = Path(__file__).resolve().parent.parent


def var_dir() -> Path:
    """Runtime state of a development checkout (SQLite file, Redis socket, beat schedule).

    ``REMI_VAR_DIR`` moves it, which lets tests run a whole second stack beside a developer's.
    """
    return env_path("REMI_VAR_DIR", BASE_DIR / "var")


def embedded_redis_socket() -> Path:
    return var_dir() / "redis.sock"
