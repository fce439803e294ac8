"""Lighthouse scores of the site's pages under production settings (issue 30's page budget).

Starts the site as production runs it (``DEBUG=false``, static files collected and compressed
by WhiteNoise, one daphne; bench/stack.py), makes a table of every game in the registry with
a move or two played, and a tournament with a round under way, then runs Lighthouse (npm
``lighthouse`` 12.2.3, the last release for Node 20, installed under ``var/lighthouse`` on the
first run) with its mobile preset, driving Debian's chromium, on:

    the home page, the lobby, the tournament page, and each game's page as a seated player
    and as a spectator (a visitor who is not logged in)

The player's session is a real cookie in the browser (set over the DevTools protocol before
Lighthouse opens the page, and kept: ``--disable-storage-reset``): a cookie sent as an extra
header would reach the page but not its sockets, which the site then refuses.

Printed: each page's performance, accessibility, best-practices and SEO scores (the median
of ``--runs`` runs), its cumulative layout shift and the bytes it transferred; the JSON
summary goes to ``bench/artefacts/lighthouse/`` (``--out``).  A run takes about half a minute
per page and run on two cores.

    python bench/lighthouse.py [--runs 1] [--pages home,lobby,...] [--out DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import HOST, Browser, Stack, free_port, make_users, running_stack

BASE_DIR = Path(__file__).resolve().parents[1]
LIGHTHOUSE_VERSION = "12.2.3"
LIGHTHOUSE_DIR = BASE_DIR / "var" / "lighthouse"
LIGHTHOUSE_CLI = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOALS = {"performance": 98, "accessibility": 100, "best-practices": 100, "seo": 100}
PAGE_BUDGET_KB = 60  # a game page as sent: HTML, styles, scripts, icon and the headers


def install_lighthouse() -> None:
    """npm's lighthouse at the pinned version, once (var/ is not in git)."""
    if LIGHTHOUSE_CLI.exists():
        installed = json.loads((LIGHTHOUSE_CLI.parents[1] / "package.json").read_text())
        if installed.get("version") == LIGHTHOUSE_VERSION:
            return
    LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
    print(f"installing lighthouse {LIGHTHOUSE_VERSION} under {LIGHTHOUSE_DIR} (npm)")
    subprocess.run(
        [
            "npm",
            "install",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--prefix",
            str(LIGHTHOUSE_DIR),
            f"lighthouse@{LIGHTHOUSE_VERSION}",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def chromium_path() -> str:
    for candidate in (
        os.environ.get("CHROMIUM_PATH"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    raise SystemExit("Debian's chromium is needed: apt-get install chromium")


@contextlib.contextmanager
def running_chromium() -> Iterator[int]:
    """A headless chromium with its DevTools port open, on a profile of its own."""
    port = free_port()
    profile = tempfile.mkdtemp(prefix="remi-lighthouse-")
    process = subprocess.Popen(
        [
            chromium_path(),
            "--headless=new",
            f"--remote-debugging-port={port}",
            f"--user-data-dir={profile}",
            "--no-first-run",
            "--no-sandbox",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://{HOST}:{port}/json/version", timeout=1).read()
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("chromium did not open its DevTools port")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


def set_session(devtools_port: int, stack: Stack, session: str | None) -> None:
    """The browser's cookies for the site: the player's session, or none (a visitor); and an
    empty cache."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.connect_over_cdp(f"http://{HOST}:{devtools_port}")
        context = browser.contexts[0]
        context.clear_cookies()
        # A first visit each time: --disable-storage-reset keeps the cache too.
        page = context.new_page()
        context.new_cdp_session(page).send("Network.clearBrowserCache")
        page.close()
        if session:
            context.add_cookies(
                [{"name": "sessionid", "value": session, "url": stack.base_url, "httpOnly": True}]
            )


# Lighthouse's own word for a trace Chrome recorded badly (its message: "Something went wrong
# with recording the trace over your page load. Please run Lighthouse again."): the page's
# navigationStart missing from the trace, a race inside Chrome's tracing that a loaded machine
# makes likelier. Not a fault of the page: that run is thrown away and the page run again.
BAD_TRACE = {"NO_NAVSTART", "NO_TRACING_STARTED"}
ATTEMPTS = 3


def lighthouse(devtools_port: int, url: str) -> dict[str, Any]:
    for attempt in range(1, ATTEMPTS + 1):
        result = lighthouse_once(devtools_port, url)
        error = (result.get("runtimeError") or {}).get("code")
        if error is None:
            break
        if error not in BAD_TRACE or attempt == ATTEMPTS:
            raise RuntimeError(f"Lighthouse on {url}: {error} (attempt {attempt})")
        print(f"Lighthouse on {url}: {error}, a bad trace; running it again", file=sys.stderr)
    return summary(result)


def lighthouse_once(devtools_port: int, url: str) -> dict[str, Any]:
    """One run's report. The CLI writes the report and then exits with an error when the run
    hit a runtime error (named in the report), so its exit status alone says too little."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        done = subprocess.run(
            [
                "node",
                str(LIGHTHOUSE_CLI),
                url,
                f"--port={devtools_port}",
                "--output=json",
                f"--output-path={report.name}",
                "--disable-storage-reset",
                "--quiet",
                f"--only-categories={','.join(CATEGORIES)}",
            ],
            check=False,
        )
        text = Path(report.name).read_text()
    if not text:
        raise RuntimeError(f"Lighthouse on {url} wrote no report (exit {done.returncode})")
    result: dict[str, Any] = json.loads(text)
    return result


def summary(result: dict[str, Any]) -> dict[str, Any]:
    scores = {c: round(100 * (result["categories"][c]["score"] or 0)) for c in CATEGORIES}
    audits = result["audits"]
    failing = sorted(
        f"{c}:{ref['id']}"
        for c in CATEGORIES
        for ref in result["categories"][c]["auditRefs"]
        if ref.get("weight")
        and (audits[ref["id"]].get("score") is not None)
        and audits[ref["id"]]["score"] < 0.9
    )
    requests = audits["network-requests"]["details"]["items"]
    heaviest = sorted(requests, key=lambda r: -r.get("transferSize", 0))[:6]
    return {
        **scores,
        "heaviest": [
            f"{r['url'].split('/', 3)[-1][:60]} {r.get('transferSize', 0) / 1024:.1f} KB"
            for r in heaviest
        ],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"],
        "failing": failing,
    }


def make_world(stack: Stack) -> tuple[dict[str, str], str]:
    """Pages to score (name -> path, and whose session: "player" or "visitor") and the
    player's session cookie."""
    from games.engine import GAMES
    from games.tables import lifecycle
    from tournaments import services as tournament_services
    from tournaments.models import Tournament

    alice, bob, carol, dave = make_users("lh", 4)
    pages = {"home": "/", "lobby": "/lobby/"}
    for key in GAMES:
        table = lifecycle.create_table(alice, game_type=key, seat_count=2)
        lifecycle.join_table(table, bob)
        game = lifecycle.start_table(table, alice)
        pages[f"{key} player"] = f"/games/{game.pk}/"
        pages[f"{key} spectator"] = f"/games/{game.pk}/"
    tournament = Tournament.objects.create(
        organiser=alice,
        name="Club evening",
        game_type=next(iter(GAMES)),
        seat_count=2,
        format=Tournament.Format.SWISS,
        rounds=3,
    )
    tournament_services.open_registration(tournament, alice)
    for person in (alice, bob, carol, dave):
        tournament_services.register(tournament, person)
    tournament_services.close_registration(tournament, alice)
    tournament_services.confirm_round(tournament_services.propose_round(tournament, alice), alice)
    pages["tournament"] = f"/tournaments/{tournament.pk}/"
    browser = Browser(stack)
    browser.log_in(alice.username)
    return pages, browser.cookies["sessionid"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page (the median counts)")
    parser.add_argument("--pages", default="", help="comma-separated page names (default all)")
    parser.add_argument("--out", default=str(BASE_DIR / "bench" / "artefacts" / "lighthouse"))
    args = parser.parse_args()
    install_lighthouse()
    results: dict[str, dict[str, Any]] = {}
    with running_stack(debug=False) as stack:
        pages, session = make_world(stack)
        wanted = [p for p in args.pages.split(",") if p] or list(pages)
        with running_chromium() as devtools:
            for name in wanted:
                path = pages[name]
                set_session(devtools, stack, None if name.endswith("spectator") else session)
                runs = [lighthouse(devtools, stack.base_url + path) for _ in range(args.runs)]
                median = {c: statistics.median(r[c] for r in runs) for c in CATEGORIES}
                results[name] = {
                    **median,
                    "cls": statistics.median(r["cls"] for r in runs),
                    "kb": statistics.median(r["bytes"] for r in runs) / 1024,
                    "failing": sorted({f for r in runs for f in r["failing"]}),
                    "heaviest": runs[0]["heaviest"],
                }
    print(
        f"\nLighthouse {LIGHTHOUSE_VERSION}, mobile preset, production settings, "
        f"median of {args.runs} run(s)"
    )
    print(f"{'page':24} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'CLS':>6} {'KB':>7}")
    for name, r in results.items():
        print(
            f"{name:24} {r['performance']:5.0f} {r['accessibility']:5.0f} "
            f"{r['best-practices']:5.0f} {r['seo']:5.0f} {r['cls']:6.3f} {r['kb']:7.1f}"
            + (f"  below 90: {', '.join(r['failing'])}" if r["failing"] else "")
        )
    short = [
        f"{name} {c} {r[c]:.0f} < {goal}"
        for name, r in results.items()
        for c, goal in GOALS.items()
        if r[c] < goal
    ]
    short += [
        f"{name} {r['kb']:.1f} KB > {PAGE_BUDGET_KB} KB"
        for name, r in results.items()
        if name.endswith(("player", "spectator")) and r["kb"] > PAGE_BUDGET_KB
    ]
    print(
        f"goals (performance >= 98, the rest 100, game pages <= {PAGE_BUDGET_KB} KB sent): "
        + ("; ".join(short) or "all met")
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (out / f"lighthouse-{stamp}.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
