"""Issue 4, acceptance 2: no page and no socket frame ever shows another seat's rack or the wall.

A scripted game between real users (2, 3 and 4 seats, plus a spectator) is played move by move,
every other move through the real ``act`` view and the rest over the mover's own game socket,
each seat logged in with its own test client; now and then another seat and the spectator try
to move over their sockets and are refused.  Every seat and
the spectator keep a real WebSocket open on the game (and on the lobby and the table page)
through the real Redis channel layer, and every frame they are sent is captured.  After every
move each viewer also loads the game page and its htmx partial; before, during and after the
game they load the lobby, the table page and "my games"; once the game is over, the replay.
Every viewer also listens to the game's chat, where players and the spectator talk now and
then: no chat frame names a tile, and during play neither room hears the other.

Every piece of HTML is checked structurally, not by searching for tile names (tiles come in
pairs, and one copy may be public while the other is hidden):

- the rack section holds exactly the viewer's own rack (a spectator's has none);
- the table's melds, the discard row and the exposed tile are exactly the public ones;
- every tile drawn anywhere is within own rack + public tiles (+ every rack once it is over);
- every tile named in text (codes such as ``R5``, labels such as "red 5") is accounted for: a
  log line names only its action's public tiles and, for the viewer's own action, its secret
  (the tile drawn, the doubla pair); the players' list names only the viewer's own doubla;
- and the strongest check: after secretly reshuffling every hidden tile (other racks, the
  wall), changing other seats' doubla pairs and the secrets in other seats' log events, the
  viewer's page renders byte for byte the same.

The deal's seed never shows while the game is played (pages, partials, frames, the "verify
the deal" page, the lobby side), the series' seed never at all; once the game is over the
result and replay pages reveal the game's seed.  The replay shows each player their own rack
at every step (and their own secrets in the log), a spectator none.
"""

from __future__ import annotations

import copy
import json
import logging
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.engine import InvalidAction, remi
from games.engine.remi.actions import (
    AddToMeld,
    Declare,
    Discard,
    Draw,
    Exchange,
    MeldAction,
    OfferDoubla,
    Pick,
    Ready,
    SwapJoly,
    TakeDiscard,
    TakeExposed,
    Undo,
)
from games.engine.remi.randomplay import actor, random_action
from games.engine.remi.state import OVER, PRELUDE, State
from games.engine.tiles import full_set, parse_tile
from games.models import Action, Game, Table
from games.play.consumers import ACTED
from games.presenters.remi.forms import ActionForm
from games.presenters.remi.forms import notation as _notation
from games.tables import lifecycle
from remi_site import json_logs
from remi_site.asgi import application
from tests.conftest import make_user
from tests.games.review_walk import check_review_after_end, check_review_endpoints_in_play
from tests.games.socket_pages import SocketPage, frame_parts, whole

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}
ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")  # a browser always says which site it asked for
FRAME_TIMEOUT = 10

# Series seeds whose scripted game (see scripted_move) is short and still has doublas offered
# and exchanged, draws, melds, additions, takes from the row, a going out — checked below.
SEEDS = {2: "hidden-2-158", 3: "hidden-3-146", 4: "hidden-4-21"}
PLAYERS = ("alice", "bob", "carol", "dave")
MAX_ACTIONS = 400
# A chat line every so many moves: often enough to cross the game, under the rate limit.
CHAT_EVERY = 23

SECTIONS = (
    "game-status",
    "game-players",
    "game-melds",
    "game-row",
    "game-rack",
    "game-controls",
    "game-result",
    "game-log",
)
COLOUR_WORDS = {"R": "red", "Y": "yellow", "B": "blue", "K": "black"}
WORD_COLOURS = {word: code for code, word in COLOUR_WORDS.items()}

# A tile named in text: a code (R5, J, or a Joly with what it stands for, J=R5, which is a
# Joly), or a label as people read it ("red 5"; "Joly as red 5" is a Joly).
CODE = re.compile(r"(?<![A-Za-z0-9=])(J=[RYBK](?:1[0-3]|[1-9])|[RYBK](?:1[0-3]|[1-9])|J)(?![\w=])")
LABEL = re.compile(r"(Joly as )?\b(red|yellow|blue|black) (1[0-3]|[1-9])\b")


# --- Reading HTML ---------------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass(eq=False)
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def walk(self) -> Iterable[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find(self, predicate: Callable[[Node], bool]) -> list[Node]:
        return [node for node in self.walk() if predicate(node)]

    def by_id(self, element_id: str) -> Node | None:
        found = self.find(lambda n: n.attrs.get("id") == element_id)
        assert len(found) <= 1, f"two elements with id {element_id}"
        return found[0] if found else None

    def inside(self, predicate: Callable[[Node], bool]) -> bool:
        node = self.parent
        while node is not None:
            if predicate(node):
                return True
            node = node.parent
        return False


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}, self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return
        raise AssertionError(f"a stray </{tag}>")

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert builder.stack == [builder.root], f"unclosed <{builder.stack[-1].tag}>"
    return builder.root


def is_tile(node: Node) -> bool:
    return "tile" in node.classes


def label_of(code: str, stands: str = "") -> str:
    if code == "J":
        return f"Joly as {label_of(stands)}" if stands else "Joly"
    return f"{COLOUR_WORDS[code[0]]} {code[1:]}"


def drawn_tile(node: Node) -> tuple[str, str]:
    """The tile a ``.tile`` element draws, from its face: (code, what a Joly stands for)."""
    nums = node.find(lambda n: "tile-num" in n.classes)
    letters = node.find(lambda n: "tile-letter" in n.classes)
    assert len(nums) == 1 and len(letters) == 1, "a tile without its face"
    number, letter = nums[0].text().strip(), letters[0].text().strip()
    if number == "J":
        assert letter == "★" or letter.startswith("="), letter
        stands = letter[1:] if letter.startswith("=") else ""
        code = "J"
    else:
        code, stands = f"{letter}{number}", ""
    assert code == "J" or str(parse_tile(code)) == code, code
    if "data-tile" in node.attrs:
        assert node.attrs["data-tile"] == code, (node.attrs["data-tile"], code)
    label = node.attrs.get("aria-label")
    if label is not None:
        expected = label_of(code, stands)
        assert expected in label, (label, expected)
        leftover = label.replace(expected, "", 1)
        assert not mentions(leftover), f"a tile's label names more tiles: {label!r}"
    return code, stands


def mentions(text: str) -> Counter[str]:
    """Tiles a text names, Jolys standing for a tile counted as Jolys."""
    found: Counter[str] = Counter()
    for match in LABEL.finditer(text):
        found["J" if match.group(1) else WORD_COLOURS[match.group(2)] + match.group(3)] += 1
    rest = LABEL.sub(" ", text)
    for match in CODE.finditer(rest):
        word = match.group(1)
        found["J" if word.startswith("J") else word] += 1
    return found


def tokens(texts: Iterable[str]) -> Counter[str]:
    found: Counter[str] = Counter()
    for text in texts:
        found += mentions(text)
    return found


def within(shown: Counter[str], allowed: Counter[str]) -> Counter[str]:
    """What ``shown`` has beyond ``allowed`` (empty: it is a sub-multiset)."""
    return shown - allowed


# --- What a viewer may see ------------------------------------------------------------------


@dataclass(frozen=True)
class Truth:
    """The position a piece of HTML must show, for one viewer."""

    state: State
    seat: int | None
    log: dict[int, list[dict[str, Any]]]  # version -> the stored events
    log_seat: int | None  # whose secrets the log may show (the replay shows none)
    final: State | None = None  # the replay: the end of the game, whose racks are shown
    step: int | None = None  # the replay: the step, whose log lines the caption repeats

    @property
    def over(self) -> bool:
        return self.state.phase == OVER

    def own_rack(self) -> Counter[str]:
        if self.seat is None:
            return Counter()
        return Counter(str(t) for t in self.state.racks[self.seat])

    def public(self) -> Counter[str]:
        state = self.state
        shown = Counter(str(t) for m in state.melds for t in m.meld.tiles)
        shown += Counter(str(t) for t in state.discards)
        if state.exposed is not None:
            shown["J" if state.exposed.is_joker else str(state.exposed)] += 1
        return shown

    def may_show(self) -> Counter[str]:
        allowed = self.public() + self.own_rack()
        if self.over:
            allowed = self.public() + Counter(str(t) for r in self.state.racks for t in r)
        if self.final is not None:
            allowed += Counter(str(t) for r in self.final.racks for t in r)
        return allowed

    def log_allows(self, version: int) -> Counter[str]:
        allowed: Counter[str] = Counter()
        for data in self.log.get(version, []):
            allowed += tokens(data.get("tiles", []))
            if self.log_seat is not None and data.get("seat") == self.log_seat:
                allowed += tokens(data.get("secret", []))
        return allowed


def check_html(html: str, truth: Truth, *, page: str, whole: bool = False) -> None:
    """Everything the HTML shows of tiles is what ``truth``'s viewer may see (see the module
    docstring).  ``whole``: all the game's sections must be there."""
    root = parse(html)
    state, seat = truth.state, truth.seat
    where = f"{page} (seat {seat}, turn {state.turn_number}, phase {state.phase})"
    # The seed: only once the game is over (a replay page is of a finished game).
    if not truth.over and truth.final is None:
        check_no_seed(html, state.seed, where)
    sections = {name: root.by_id(name) for name in SECTIONS}
    if whole:
        missing = [name for name, node in sections.items() if node is None]
        assert not missing, f"{where}: no {missing}"

    def in_section(node: Node, name: str) -> bool:
        section = sections.get(name)
        return section is not None and (node is section or node.inside(lambda n: n is section))

    # 1. Tiles drawn as tiles, section by section, exactly.
    tiles = root.find(is_tile)
    drawn = {id(node): drawn_tile(node) for node in tiles}
    for node in tiles:
        assert not node.inside(is_tile), f"{where}: a tile inside a tile"
    rack = sections["game-rack"]
    if rack is not None:
        shown = Counter(drawn[id(n)][0] for n in tiles if in_section(n, "game-rack"))
        if seat is None or truth.over:
            assert shown == Counter(), f"{where}: a rack is shown: {shown}"
            assert "hidden" in rack.attrs, f"{where}: the rack section is not hidden"
            assert "Your rack" not in rack.text()
        else:
            assert shown == truth.own_rack(), f"{where}: the rack shows {shown}"
    melds = sections["game-melds"]
    if melds is not None:
        buttons = melds.find(lambda n: "meld" in n.classes)
        assert sorted(int(b.attrs["data-meld"]) for b in buttons) == list(range(len(state.melds)))
        for button in buttons:
            table_meld = state.melds[int(button.attrs["data-meld"])].meld
            faces = [drawn[id(n)] for n in button.find(is_tile)]
            expected = [
                (str(t), str(a) if t.is_joker else "")
                for t, a in zip(table_meld.tiles, table_meld.stands_for, strict=True)
            ]
            assert faces == expected, f"{where}: meld {button.attrs['data-meld']}: {faces}"
            label = f"Meld {button.attrs['data-meld']}, {table_meld.kind}: " + ", ".join(
                label_of(code, stands) for code, stands in expected
            )
            if "recent" in button.classes:  # laid or changed by the previous player
                label += " (just played)"
            assert button.attrs.get("aria-label") == label, (button.attrs.get("aria-label"), label)
        in_melds = [n for n in tiles if in_section(n, "game-melds")]
        assert all(n.inside(lambda p: p in buttons) for n in in_melds), where
    row = sections["game-row"]
    if row is not None:
        row_tiles = [n for n in tiles if in_section(n, "game-row")]
        discards = [n for n in row_tiles if "data-row" in n.attrs]
        assert [int(n.attrs["data-row"]) for n in discards] == list(range(len(state.discards)))
        assert [drawn[id(n)][0] for n in discards] == [str(t) for t in state.discards], where
        exposed = [drawn[id(n)][0] for n in row_tiles if "data-row" not in n.attrs]
        assert exposed == ([str(state.exposed)] if state.exposed else []), (where, exposed)
    result = sections["game-result"]
    if result is not None:
        racks = [
            [drawn[id(t)][0] for t in cell.find(is_tile)]
            for cell in result.find(lambda n: "final-rack" in n.classes)
        ]
        if truth.over:
            assert racks == [[str(t) for t in r] for r in state.racks], f"{where}: {racks}"
        else:
            assert racks == [] and not result.find(is_tile), f"{where}: a result before the end"
    final_racks = root.find(lambda n: "final-racks" in n.classes)
    if truth.final is not None:
        assert len(final_racks) == 1, where
        racks = [
            [drawn[id(t)][0] for t in li.find(is_tile)]
            for li in final_racks[0].find(lambda n: n.tag == "li")
        ]
        assert racks == [[str(t) for t in r] for r in truth.final.racks], where
    else:
        assert not final_racks, where
    for node in tiles:
        known = any(in_section(node, name) for name in ("game-rack", "game-melds", "game-row"))
        known = known or in_section(node, "game-result") or node.inside(lambda n: n in final_racks)
        assert known, f"{where}: a tile outside the known places: {drawn[id(node)]}"

    # 2. Every tile drawn anywhere is within own rack + public (+ the racks at the end).
    everything = Counter(code for code, _ in drawn.values())
    extra = within(everything, truth.may_show())
    assert not extra, f"{where}: shows tiles it may not: {extra}"

    # 3. Tiles named in text and attributes, outside the tiles themselves.
    named: dict[str, Counter[str]] = {}
    log_lines: dict[tuple[str, int], Counter[str]] = {}
    for node in root.walk():
        if node.tag in ("script", "style") or is_tile(node) or node.inside(is_tile):
            continue
        if in_section(node, "game-controls") and (
            node.tag in ("code", "kbd") or node.inside(lambda n: n.tag in ("code", "kbd"))
        ):
            continue  # notation examples written in the template (the reshuffle covers them)
        texts = [c for c in node.children if isinstance(c, str)]
        for name, value in node.attrs.items():
            if name in ("class", "id"):
                continue
            if name == "aria-label" and "meld" in node.classes:
                continue  # checked against the meld above
            if name == "placeholder" and node.attrs.get("id") == "notation-input":
                continue  # an example move, written in the template too
            texts.append(value)
        found = tokens(texts)
        if not found:
            continue
        entry = node if "data-version" in node.attrs else None
        if entry is None:
            parents = [node]
            while parents[-1].parent is not None:
                parents.append(parents[-1].parent)
            entry = next((p for p in parents if "data-version" in p.attrs), None)
        # A log entry: in the log, or in a frame's new entries for it (games/play/page_parts.py).
        in_log = in_section(entry, "game-log") if entry is not None else False
        if entry is not None and (in_log or entry.inside(new_log_entries)):
            line = ("log line", int(entry.attrs["data-version"]))
            log_lines[line] = log_lines.get(line, Counter()) + found
            continue
        if truth.step and ("replay-caption" in node.classes or node.inside(caption)):
            line = ("replay caption", truth.step)  # the step's log lines again
            log_lines[line] = log_lines.get(line, Counter()) + found
            continue
        section = next((name for name in SECTIONS if in_section(node, name)), "page")
        named[section] = named.get(section, Counter()) + found
    allowed: dict[str, Counter[str]] = {}
    offer = state.offers[seat] if seat is not None and state.phase == PRELUDE else None
    if offer is not None:
        allowed["game-controls"] = Counter({str(offer.tile): 1})  # "doubla: your R5 pair"
    if state.exposed is None and state.exposed_tile is not None:
        allowed["game-row"] = Counter({str(state.exposed_tile): 1})  # "taken (red 5)"
    for section, found in named.items():
        extra = within(found, allowed.get(section, Counter()))
        assert not extra, f"{where}: {section} names tiles it may not: {extra}"
    for (what, version), found in log_lines.items():
        extra = within(found, truth.log_allows(version))
        assert not extra, (
            f"{where}: {what} {version} names tiles it may not: {extra} "
            f"(its events: {truth.log.get(version)})"
        )


def new_log_entries(node: Node) -> bool:
    return node.attrs.get("id") == "game-log-list"


def check_no_seed(html: str, seed: str, where: str) -> None:
    """Neither the game's seed nor the series' (the seed the test chose) is in ``html``."""
    assert seed not in html, f"{where}: shows the deal's seed"
    for series_seed in SEEDS.values():
        assert series_seed not in html, f"{where}: shows the series' seed"


def caption(node: Node) -> bool:
    return "replay-caption" in node.classes


def check_tileless(html: str, where: str) -> None:
    """A lobby-side page or frame: no tile at all, drawn or named."""
    root = parse(html)
    assert not root.find(is_tile), where
    texts = [c for n in root.walk() if n.tag != "script" for c in n.children if isinstance(c, str)]
    texts += [v for n in root.walk() for k, v in n.attrs.items() if k not in ("class", "id")]
    assert not tokens(texts), f"{where} names tiles: {tokens(texts)}"


CSRF = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*"')


def normalised(html: str) -> str:
    return CSRF.sub(r'\1…"', html)


def version_of(html: str) -> int:
    match = re.search(r'<span class="version" title="Moves played">v(\d+)</span>', html)
    assert match, "no version in the HTML"
    return int(match.group(1))


# --- Hiding again: the reshuffle ------------------------------------------------------------


def reshuffled(data: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
    """The stored state with every tile ``seat`` cannot see dealt again: the other racks (all
    racks for a spectator; none once the game is over) and the wall, sizes kept; other seats'
    doubla pairs changed.  The checkpoint (a saved earlier state) gets the same treatment."""
    data = copy.deepcopy(data)
    over = data["phase"] == OVER
    hidden_racks = [i for i in range(len(data["racks"])) if i != seat and not over]
    pools = [data["wall"].split(), *(data["racks"][i].split() for i in hidden_racks)]
    hidden = [t for pool in pools for t in pool]
    for _ in range(100):
        shuffled = list(hidden)
        rng.shuffle(shuffled)
        if shuffled != hidden or len(set(hidden)) < 2:
            break
    sizes = [len(pool) for pool in pools]
    cut = [shuffled[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
    data["wall"] = " ".join(cut[0])
    for i, tiles in zip(hidden_racks, cut[1:], strict=True):
        data["racks"][i] = " ".join(tiles)
    numbered = [str(t) for t in full_set() if not t.is_joker]
    for i, offer in enumerate(data["offers"]):
        if offer is not None and i != seat:
            offer["tile"] = rng.choice([t for t in numbered if t != offer["tile"]])
    if data.get("checkpoint"):
        data["checkpoint"] = reshuffled(data["checkpoint"], seat, rng)
    return data


def scrambled_events(events: list[dict[str, Any]], seat: int | None, rng: random.Random) -> list:
    """Other seats' secrets (the tile drawn, the doubla pair) replaced by other tiles."""
    numbered = [str(t) for t in full_set() if not t.is_joker]
    scrambled = copy.deepcopy(events)
    for data in scrambled:
        if data.get("secret") and data.get("seat") != seat:
            data["secret"] = [rng.choice([t for t in numbered if t != s]) for s in data["secret"]]
    return scrambled


# --- The script -----------------------------------------------------------------------------


def scripted_move(state: State, rng: random.Random) -> tuple[int, remi.Action]:
    """Doublas first (every seat with a pair offers one; the first two offers are exchanged),
    then everyone is ready, then random legal play from the engine."""
    if state.phase == PRELUDE:
        for seat, rack in enumerate(state.racks):
            if state.offers[seat] is None and not state.exchanged[seat] and not state.ready[seat]:
                pairs = sorted({t for t in rack if not t.is_joker and rack.count(t) >= 2}, key=str)
                if pairs:
                    tile = rng.choice(pairs)
                    label = rng.choice([None, "low" if tile.number <= 6 else "high"])
                    return seat, OfferDoubla(tile, label)
        offering = [s for s, o in enumerate(state.offers) if o is not None]
        if len(offering) >= 2:
            a, b = offering[:2]
            for me, other in ((a, b), (b, a)):
                if state.requests[me] != other and not state.exchanged[me]:
                    return me, Exchange(other)
        return actor(state), Ready()
    seat = actor(state)
    return seat, random_action(state, seat, rng)


def form_fields(action: remi.Action, version: int, state: dict[str, Any]) -> dict[str, Any]:
    """What the game page would post for ``action``: the verb with the selected tiles, meld,
    row tile or seat; typed notation when the buttons cannot say it exactly."""
    fields: dict[str, Any] = {"version": version, "verb": action.verb}
    match action:
        case Draw() | TakeDiscard() | TakeExposed() | Declare() | Ready() | Undo():
            pass
        case Discard(tile=tile):
            fields["tiles"] = str(tile)
        case MeldAction(groups=groups):
            fields["tiles"] = " | ".join(str(g) for g in groups)
        case AddToMeld(meld=meld, group=group):
            fields.update(meld=meld, tiles=str(group))
        case SwapJoly(meld=meld, replacement=replacement, group=group):
            partners = str(group).split()[1:]
            fields.update(
                meld=meld, tiles=f"{' '.join(map(str, replacement))} | {' '.join(partners)}"
            )
        case Pick(index=index, group=group):
            fields.update(row=index, tiles=" ".join(str(group).split()[1:]))
        case OfferDoubla(tile=tile, label=label):
            fields.update(tiles=str(tile), label=label or "")
        case Exchange(seat=other):
            fields["seat"] = other
    form = ActionForm(fields)
    same = False
    if form.is_valid():
        try:
            same = remi.parse_action(_notation(form.cleaned_data, state)) == action
        except InvalidAction:
            same = False
    if not same:
        fields = {"version": version, "verb": "notation", "notation": str(action)}
    return fields


# --- The game -------------------------------------------------------------------------------


@dataclass
class Viewer:
    user: Any
    seat: int | None
    client: Client
    game_socket: WebsocketCommunicator | None = None
    lobby_sockets: list[WebsocketCommunicator] = field(default_factory=list)
    chat_socket: WebsocketCommunicator | None = None
    frames: int = 0

    @property
    def cookie(self) -> tuple[bytes, bytes]:
        value = self.client.cookies[settings.SESSION_COOKIE_NAME].value
        return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


def stored_log(game_id: int) -> dict[int, list[dict[str, Any]]]:
    return {
        version: events
        for version, events in Action.objects.filter(game_id=game_id).values_list(
            "version", "events"
        )
    }


def get_html(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def check_pages_at(game_id: int, viewers: list[Viewer], rng: random.Random) -> None:
    """Each viewer loads the game page and its htmx partial; then, with every hidden tile
    dealt again behind their back, loads both again: byte for byte the same."""
    game = Game.objects.get(pk=game_id)
    state = State.from_dict(game.state)
    log = stored_log(game_id)
    url = f"/games/{game_id}/"
    check_review_endpoints_in_play(game_id, [(v.seat, v.client) for v in viewers])
    for viewer in viewers:
        truth = Truth(state, viewer.seat, log, viewer.seat)
        page = get_html(viewer.client, url)
        partial = get_html(viewer.client, url, **HTMX)
        check_html(page, truth, page="game page", whole=True)
        check_html(partial, truth, page="game partial", whole=True)
        assert version_of(page) == version_of(partial) == game.version
        assert game.deal_commitment and game.deal_commitment in page
        # The "verify the deal" page, asked with the true seed: the commitment alone.
        deal = get_html(viewer.client, f"/games/{game_id}/deal/?seed={state.seed}")
        assert game.deal_commitment in deal
        if state.phase != OVER:
            check_no_seed(deal, state.seed, f"deal page (seat {viewer.seat})")
            assert 'id="deal-verdict"' not in deal

        # Every action with another seat's secret (the page shows the last few dozen).
        actions = [
            a
            for a in Action.objects.filter(game_id=game_id).only("pk", "events")
            if any(e.get("secret") and e.get("seat") != viewer.seat for e in a.events)
        ]
        originals = [a.events for a in actions]
        for a in actions:
            a.events = scrambled_events(a.events, viewer.seat, rng)
        Action.objects.bulk_update(actions, ["events"])
        Game.objects.filter(pk=game_id).update(state=reshuffled(game.state, viewer.seat, rng))
        try:
            assert normalised(get_html(viewer.client, url)) == normalised(page), (
                f"seat {viewer.seat}'s game page changed when hidden tiles moved"
            )
            assert normalised(get_html(viewer.client, url, **HTMX)) == normalised(partial), (
                f"seat {viewer.seat}'s game partial changed when hidden tiles moved"
            )
        finally:
            Game.objects.filter(pk=game_id).update(state=game.state)
            for a, events in zip(actions, originals, strict=True):
                a.events = events
            Action.objects.bulk_update(actions, ["events"])


def check_lobby_pages(table: Table, viewers: list[Viewer], when: str) -> None:
    game = Game.objects.filter(table=table).first()
    seed = State.from_dict(game.state).seed if game is not None else None
    for viewer in viewers:
        for url in ("/lobby/", f"/tables/{table.pk}/", "/games/mine/"):
            html = get_html(viewer.client, url)
            check_tileless(html, f"{url} {when}")
            if seed is not None:
                check_no_seed(html, seed, f"{url} {when}")
        check_tileless(get_html(viewer.client, "/lobby/", **HTMX), f"lobby partial {when}")
        check_tileless(
            get_html(viewer.client, f"/tables/{table.pk}/", **HTMX), f"table partial {when}"
        )


def rack_of(html: str) -> str:
    match = re.search(r'<section id="game-rack".*?</section>', html, re.S)
    assert match, "no rack section"
    return match.group(0)


def check_replay(game_id: int, viewers: list[Viewer]) -> int:
    """Every step of the replay (the htmx step for one viewer in turn, the whole page every
    tenth step): the public position at that step and the racks at the end."""
    game = Game.objects.get(pk=game_id)
    final = State.from_dict(game.state)
    notations = list(
        Action.objects.filter(game_id=game_id).order_by("version").values_list("seat", "notation")
    )
    log = stored_log(game_id)
    state = remi.new_game(final.rules, final.seats, final.seed, final.dealer)
    url = f"/games/{game_id}/replay/"
    pages = 0
    for step in range(len(notations) + 1):
        if step:
            state, _ = remi.apply(state, *notations[step - 1])
        # Each player sees their own rack (and their own secrets in the log), a spectator
        # none: check_html holds the rack section to exactly the viewer's own rack.
        viewer = viewers[step % len(viewers)]
        html = get_html(viewer.client, f"{url}?step={step}", **HTMX)
        truth = Truth(state, viewer.seat, log, viewer.seat, step=step)
        check_html(html, truth, page=f"replay step {step}")
        check_no_seed(html, final.seed, f"replay step {step}")  # the step is not the page
        pages += 1
        if step % 10 == 0 or step == len(notations):
            for viewer in viewers:
                page = get_html(viewer.client, f"{url}?step={step}")
                truth = Truth(state, viewer.seat, log, viewer.seat, final=final, step=step)
                check_html(page, truth, page=f"replay page step {step}")
                assert final.seed in page, "the replay page of a finished game shows its seed"
                pages += 1
    # A player's replay showed them their own dealt rack at the deal.
    first = remi.new_game(final.rules, final.seats, final.seed, final.dealer)
    for viewer in viewers:
        racks = re.findall(r'data-tile="([^"]+)"', rack_of(get_html(viewer.client, url)))
        expected = [] if viewer.seat is None else [str(t) for t in first.racks[viewer.seat]]
        assert sorted(racks) == sorted(expected), (viewer.seat, racks)
    assert state.to_dict()["racks"] == final.to_dict()["racks"]
    return pages


def check_revealed_deal(game_id: int, viewers: list[Viewer]) -> None:
    """Once over, the game's page reveals its seed and the deal checks out against it."""
    game = Game.objects.get(pk=game_id)
    seed = State.from_dict(game.state).seed
    for viewer in viewers:
        page = get_html(viewer.client, f"/games/{game_id}/")
        assert seed in page and "Verify the deal" in page
        deal = get_html(viewer.client, f"/games/{game_id}/deal/?seed={seed}")
        assert 'data-verified="true"' in deal
        assert all(s not in page + deal for s in SEEDS.values()), "the series' seed shows"


SITE_LOGGERS = ("games", "remi_site", "accounts", "chat", "notifications", "tournaments")


class LogLines(logging.Handler):
    """Every line the site logs during the walk, as LOG_FORMAT=json writes it."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.setFormatter(json_logs.JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def log_lines() -> Iterator[LogLines]:
    # The site's own loggers down to DEBUG (a secret logged "only for debugging" still leaves
    # the server); the libraries' at the production default, INFO, as their DEBUG chatter
    # (every socket frame, every Redis call) would double the walk's time.
    handler = LogLines()
    root = logging.getLogger()
    root.addHandler(handler)
    ours = [logging.getLogger(name) for name in SITE_LOGGERS]
    levels = [logger.level for logger in ours]
    for logger in ours:
        logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        for logger, level in zip(ours, levels, strict=True):
            logger.setLevel(level)
        root.removeHandler(handler)


def check_log_lines(lines: list[str], seed: str) -> None:
    """The logs are read by operators and shipped elsewhere: no line names a tile or a seed."""
    for line in lines:
        entry = json.loads(line)
        assert entry["time"].endswith("Z"), line
        check_no_seed(line, seed, "a log line")
        named = tokens([entry["message"], entry.get("exception", "")])
        assert not named, f"a log line names tiles {named}: {line}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_page_or_frame_shows_another_rack_or_the_wall(
    players, monkeypatch, alice, bob, carol, log_lines
):
    users = [alice, bob, carol, make_user("dave")][:players]
    watcher = make_user("erin")
    seed = SEEDS[players]
    monkeypatch.setattr(lifecycle, "new_series_seed", lambda: seed)

    def logged_in(user: Any, seat: int | None) -> Viewer:
        client = Client()
        client.force_login(user)
        return Viewer(user, seat, client)

    owner = logged_in(users[0], 0)
    table = lifecycle.create_table(users[0], seat_count=players)  # public, the source rules
    viewers = [owner] + [logged_in(user, None) for user in users[1:]]
    for viewer in viewers[1:]:
        assert viewer.client.post(f"/tables/{table.pk}/join/").status_code == 302
    for viewer in viewers:
        viewer.seat = table.seats.get(user=viewer.user).position
    viewers.append(logged_in(watcher, None))
    check_lobby_pages(table, viewers, "before the start")

    rng = random.Random(seed)  # the moves: the same game as when the seed was chosen
    hiding = random.Random(0)  # the reshuffles
    checks = Counter()

    async def run() -> None:
        sync = sync_to_async  # thread_sensitive: the test's own thread and connection
        for viewer in viewers:  # the lobby and the table page listen before the start
            for path in ("/ws/lobby/", f"/ws/lobby/?table={table.pk}&seen=open"):
                ws = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST, viewer.cookie])
                assert (await ws.connect())[0]
                viewer.lobby_sockets.append(ws)
        assert (await sync(owner.client.post)(f"/tables/{table.pk}/start/")).status_code == 302
        game = await sync(Game.objects.get)(table=table)
        for viewer in viewers:
            ws = WebsocketCommunicator(
                application,
                f"/ws/games/{game.pk}/?version=0",
                headers=[ORIGIN, HOST, viewer.cookie],
            )
            assert (await ws.connect())[0], f"{viewer.user} could not connect"
            viewer.game_socket = ws
            chat = WebsocketCommunicator(
                application, f"/ws/games/{game.pk}/chat/", headers=[ORIGIN, HOST, viewer.cookie]
            )
            assert (await chat.connect())[0], f"{viewer.user} could not open the chat"
            viewer.chat_socket = chat
        # A second tab of every viewer and an anonymous spectator: the sockets of one process
        # share each version's renders (games.play.live_views), and each must get exactly what the
        # first socket of the same seat gets, the anonymous one what the logged-in spectator
        # gets — never a render made for another seat.
        extra: list[tuple[Viewer, WebsocketCommunicator]] = []
        for viewer in [*viewers, None]:
            cookie = [viewer.cookie] if viewer is not None else []
            ws = WebsocketCommunicator(
                application, f"/ws/games/{game.pk}/?version=0", headers=[ORIGIN, HOST, *cookie]
            )
            assert (await ws.connect())[0]
            extra.append((viewer or viewers[-1], ws))
        await sync(check_pages_at)(game.pk, viewers, hiding)
        await sync(check_lobby_pages)(table, viewers, "at the start")
        pages = {viewer.seat: SocketPage() for viewer in viewers}
        extra_pages = [SocketPage() for _ in extra]

        for version in range(MAX_ACTIONS):
            game = await sync(Game.objects.get)(pk=game.pk)
            state = State.from_dict(game.state)
            if state.phase == OVER:
                break
            assert game.version == version
            seat, action = scripted_move(state, rng)
            actor_view = next(v for v in viewers if v.seat == seat)
            fields = form_fields(action, version, game.state)
            checks[action.verb] += 1
            checks["typed" if fields["verb"] == "notation" else "buttons"] += 1
            if version % 9 == 4:
                # Now and then someone else tries to move (refused) or posts a stale version.
                other = next(v for v in viewers if v.seat not in (seat, None))
                refused = await sync(other.client.post)(
                    f"/games/{game.pk}/act/", {"version": version, "verb": "draw"}, **HTMX
                )
                if state.phase != PRELUDE:
                    assert refused.status_code == 200 and "game-error" in refused.content.decode()
                    await sync(check_html)(
                        refused.content.decode(),
                        Truth(state, other.seat, await sync(stored_log)(game.pk), other.seat),
                        page="refused move",
                    )
                    checks["refused"] += 1
            if version % 9 == 7 and state.phase != PRELUDE:
                # The same over the sockets: another seat's move and a spectator's, refused,
                # each answered on its own socket with its own view only.
                for other in (
                    next(v for v in viewers if v.seat not in (seat, None)),
                    viewers[-1],
                ):
                    frame = json.dumps({"version": str(version), "verb": "draw"})
                    await other.game_socket.send_to(text_data=frame)
                    refused = await other.game_socket.receive_from(timeout=FRAME_TIMEOUT)
                    assert "game-error" in refused and not refused.startswith(ACTED)
                    pages[other.seat].apply(refused)
                    await sync(check_html)(
                        refused,
                        Truth(state, other.seat, await sync(stored_log)(game.pk), other.seat),
                        page="refused move over the socket",
                    )
                    checks["refused over the socket"] += 1
            over_socket = version % 2 == 1
            if over_socket:
                # Every other move travels over the mover's open socket, as the page sends it.
                frame = json.dumps({name: str(value) for name, value in fields.items()})
                await actor_view.game_socket.send_to(text_data=frame)
                answer = await actor_view.game_socket.receive_from(timeout=FRAME_TIMEOUT)
                assert answer.startswith(ACTED), answer[:2000]
                answer = answer.removeprefix(ACTED)
                checks["moves over the socket"] += 1
            else:
                response = await sync(actor_view.client.post)(
                    f"/games/{game.pk}/act/", fields, **HTMX
                )
                assert response.status_code == 200, response.content.decode()[:2000]
                answer = response.content.decode()
            game = await sync(Game.objects.get)(pk=game.pk)
            assert game.version == version + 1, f"{action} was not played: {answer[-3000:]}"
            after = State.from_dict(game.state)
            log = await sync(stored_log)(game.pk)
            await sync(check_html)(answer, Truth(after, seat, log, seat), page="act", whole=True)
            sent: dict[int | None, str] = {}
            for viewer in viewers:
                if over_socket and viewer is actor_view:
                    frame = answer  # the mover's socket was answered; it is sent no more
                else:
                    frame = await viewer.game_socket.receive_from(timeout=FRAME_TIMEOUT)
                sent[viewer.seat] = frame
                viewer.frames += 1
                assert version_of(frame) == version + 1
                truth = Truth(after, viewer.seat, log, viewer.seat)
                # A frame holds the parts that changed; the page, every part as it now shows.
                await sync(check_html)(frame, truth, page="socket frame")
                page = pages[viewer.seat]
                checks["parts sent"] += len(page.apply(frame))
                checks["parts kept"] += len(page.parts) - len(frame_parts(frame))
                await sync(check_html)(page.html, truth, page="socket page", whole=True)
                if viewer is actor_view:
                    # The socket and the act view show the same partials.
                    shown = {key: normalised(html) for key, html in page.shown().items()}
                    assert shown == whole(normalised(answer))
            for index, (viewer, ws) in enumerate(extra):
                again = await ws.receive_from(timeout=FRAME_TIMEOUT)
                # Each tab is sent what changed since its own last frame (the first tab also
                # had a refusal's answer): the pages they add up to are the same.
                extra_pages[index].apply(again)
                shown = pages[viewer.seat].shown()
                assert extra_pages[index].shown() == shown, f"another tab of seat {viewer.seat}"
                checks["shared frames"] += 1
            if version % 9 == 4:
                stale = await sync(actor_view.client.post)(
                    f"/games/{game.pk}/act/", {"version": version, "verb": "draw"}, **HTMX
                )
                assert stale.status_code == 200 and "moved on" in stale.content.decode()
                await sync(check_html)(
                    stale.content.decode(), Truth(after, seat, log, seat), page="stale", whole=True
                )
                checks["stale"] += 1
            if version == 12 and after.phase != OVER:
                # Every player arranges their rack (reversed): the order is theirs alone.
                for viewer in viewers:
                    if viewer.seat is not None:
                        order = " ".join(str(t) for t in reversed(after.racks[viewer.seat]))
                        saved = await sync(viewer.client.post)(
                            f"/games/{game.pk}/rack/", {"order": order}, **HTMX
                        )
                        assert saved.status_code == 204
            if version % CHAT_EVERY == 5:
                # The player who just moved talks; now and then the spectator does too.
                said = await sync(actor_view.client.post)(
                    f"/games/{game.pk}/chat/", {"text": f"Move {version}: good luck"}, **HTMX
                )
                assert said.status_code == 200
                checks["player lines"] += 1
                if version % (2 * CHAT_EVERY) == 5:
                    watching = await sync(viewers[-1].client.post)(
                        f"/games/{game.pk}/chat/", {"text": f"Watching move {version}"}, **HTMX
                    )
                    assert watching.status_code == 200
                    checks["spectator lines"] += 1
            await sync(check_pages_at)(game.pk, viewers, hiding)
            checks["positions"] += 1
        else:
            pytest.fail(f"the scripted game did not end in {MAX_ACTIONS} actions")

        for viewer in viewers:
            # Chat frames name no tile, and during play each room hears only itself.
            lines = []
            while not await viewer.chat_socket.receive_nothing(timeout=0.3):
                lines.append(await viewer.chat_socket.receive_from())
            for line in lines:
                check_tileless(line, "a chat frame")
            heard = " ".join(lines)
            if viewer.seat is None:
                assert "good luck" not in heard, "a spectator heard the players' chat"
                assert heard.count("Watching move") == checks["spectator lines"]
            else:
                assert "Watching move" not in heard, "a player heard the spectators' chat"
                assert heard.count("good luck") == checks["player lines"]
            checks["chat frames"] += len(lines)
            await viewer.chat_socket.disconnect()
            assert await viewer.game_socket.receive_nothing(timeout=0.3), "an extra frame"
            await viewer.game_socket.disconnect()
        for _, ws in extra:
            assert await ws.receive_nothing(timeout=0.1), "an extra frame"
            await ws.disconnect()
            for ws in viewer.lobby_sockets:
                while not await ws.receive_nothing(timeout=0.3):
                    frame = await ws.receive_from()
                    check_tileless(frame, "a lobby frame")
                    checks["lobby frames"] += 1
                await ws.disconnect()
        await sync(check_lobby_pages)(table, viewers, "after the end")
        checks["replay pages"] += await sync(check_replay)(game.pk, viewers)
        await sync(check_revealed_deal)(game.pk, viewers)
        checks["reviewed turns"] += await sync(check_review_after_end)(
            game.pk, [(v.seat, v.client) for v in viewers]
        )

    async_to_sync(run)()

    game = Game.objects.get(table=table)
    assert game.status == Game.Status.FINISHED
    assert all(v.frames == game.version for v in viewers), [v.frames for v in viewers]
    # A page that does not exist is logged (a warning with the ids): the check reads lines.
    assert viewers[0].client.get(f"/games/{game.pk + 1000}/").status_code == 404
    assert any('"Not Found' in line for line in log_lines.lines), log_lines.lines
    check_log_lines(log_lines.lines, State.from_dict(game.state).seed)
    # The script must have reached what this test is about; a change to the engine's random
    # play may need another seed in SEEDS.
    events = Counter(e["kind"] for a in Action.objects.filter(game=game) for e in a.events)
    assert events["doubla"] >= 2 and events["exchanged"] == 1, events
    assert events["drew"] and events["melded"] and events["added"], events
    assert events["took"] + events["picked"] >= 1, events
    assert events["went-out"] == 1, events
    assert checks["buttons"] > checks["typed"], checks
    assert checks["refused"] and checks["stale"], checks
    assert checks["moves over the socket"] >= 10 and checks["refused over the socket"], checks
    # The sockets send only the parts that changed: some of each page stays as it was.
    assert checks["parts kept"] > 0, checks
    assert checks["player lines"] >= 2 and checks["spectator lines"] >= 1, checks
