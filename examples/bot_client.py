#!/usr/bin/env python3
"""An example Bot API client (docs/bot-api.md): the standard library only.

It opens the bot's event stream, accepts every invitation (or joins the table given with
``--join``), and plays each game that starts on a thread of its own: it follows the game's
stream and, whenever the line says it is the bot's turn, posts a move with the version the
line carries.

The brain, ``choose``, is the part to replace with your own program.  This example borrows
the site's own engine (``games.engine``, pure Python, no Django) when it runs from a checkout
of the site, so it can play all four games out of the box::

    python examples/bot_client.py --url http://127.0.0.1:8000 --token remi_…

``--games N`` stops after N games have ended (the tests use it); the default plays forever.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# A running site sends an empty line at least this often; silence for much longer means the
# connection is gone.
READ_TIMEOUT = 60


class Api:
    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def _request(self, path: str, body: dict[str, Any] | None = None) -> urllib.request.Request:
        data = json.dumps(body).encode() if body is not None else None
        headers = dict(self.headers)
        if data is not None:
            headers["Content-Type"] = "application/json"
        method = "POST" if data is not None else "GET"
        return urllib.request.Request(self.url + path, data, headers, method=method)

    def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        """The status and the JSON answer (a refusal is an answer too, not an exception)."""
        try:
            with urllib.request.urlopen(self._request(path, body or {}), timeout=30) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refused:
            return refused.code, json.load(refused)

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The lines of an NDJSON stream, skipping the keep-alive empty lines."""
        with urllib.request.urlopen(self._request(path), timeout=READ_TIMEOUT) as lines:
            for raw in lines:
                if raw.strip():
                    yield json.loads(raw)


def _site_engine() -> Any:
    """The site's engine package, when this file sits in a checkout of the site."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from games.engine import GAMES, discover_games, get_game, register_games

    if not GAMES:  # outside the site, which registers its games from its settings
        register_games(discover_games())
    return get_game


def choose(line: dict[str, Any], level: str, rng: random.Random) -> str:
    """The move to play, in the game's notation, from what the bot's seat sees (``view``).
    Replace this with your own program."""
    engine = _site_engine()(line["game_type"])
    return str(engine.choose(line["view"], level, rng))


class Bot:
    def __init__(self, api: Api, level: str, games: int | None) -> None:
        self.api = api
        self.level = level
        self.games_left = games
        self.playing: set[int] = set()
        self.lock = threading.Lock()
        self.done = threading.Event()

    def run(self, join: int | None) -> None:
        if join is not None:
            status, answer = self.api.post(f"/api/bot/table/{join}/join")
            print("join", status, answer, flush=True)
        threading.Thread(target=self.follow_events, daemon=True).start()
        self.done.wait()

    def follow_events(self) -> None:
        try:
            for event in self.api.stream("/api/bot/stream/event"):
                if event["type"] == "invitation":
                    status, answer = self.api.post(f"/api/bot/invitation/{event['id']}/accept")
                    print("accepted invitation", event["id"], status, answer, flush=True)
                elif event["type"] == "gameStart":
                    with self.lock:
                        if event["game"] in self.playing:
                            continue
                        self.playing.add(event["game"])
                    threading.Thread(target=self.play, args=(event["game"],), daemon=True).start()
        except Exception as error:  # the example gives up; a real bot would reconnect
            print("event stream ended:", repr(error), flush=True)
            self.done.set()

    def play(self, game_id: int) -> None:
        rng = random.Random(game_id)
        last = None
        for line in self.api.stream(f"/api/bot/game/{game_id}/stream"):
            last = line
            if line["status"] != "playing" or not line["my_turn"]:
                continue
            for _attempt in range(5):  # a refused choice is tried again with other luck
                move = choose(line, self.level, rng)
                status, answer = self.api.post(
                    f"/api/bot/game/{game_id}/move", {"move": move, "version": line["version"]}
                )
                if status == 200 or answer.get("error") == "moved-on":
                    break
                print("refused", move, status, answer, flush=True)
        print("game over", game_id, json.dumps(last and last["scores"]), flush=True)
        with self.lock:
            if self.games_left is not None:
                self.games_left -= 1
                if self.games_left <= 0:
                    self.done.set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--join", type=int, help="join this open table first")
    parser.add_argument("--games", type=int, help="stop after this many games have ended")
    options = parser.parse_args()
    Bot(Api(options.url, options.token), options.level, options.games).run(options.join)


if __name__ == "__main__":
    main()
