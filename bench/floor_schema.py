"""The durable floor's two tables (bench/floor_asgi.py writes them, bench/live.py makes
them): apart, so that the driver can name them without loading the site's ASGI application."""

from __future__ import annotations

DURABLE_GAMES = "bench_floor_game"
DURABLE_MOVES = "bench_floor_move"

# Created by the driver before the durable phase (bench/live.py, prepare_durable_floor).
DURABLE_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {DURABLE_GAMES} "
    "(id integer PRIMARY KEY, version integer NOT NULL, state jsonb NOT NULL)",
    f"CREATE TABLE IF NOT EXISTS {DURABLE_MOVES} (id bigserial PRIMARY KEY, "
    "game_id integer NOT NULL, version integer NOT NULL, action text NOT NULL, "
    "UNIQUE (game_id, version))",
)
