"""How many WebSockets one client may hold open in one web process.

Every open socket costs its process memory and a share of the work each change sets off, so
one client that opens hundreds of them (issue 27: 299 of 300 idle lobby sockets from one
visitor) could slow every game the process serves.  :class:`SocketLimits`, in front of every
WebSocket route, counts the sockets each client address and each session holds open in this
process and refuses one more past ``MAX_SOCKETS_PER_ADDRESS`` or ``MAX_SOCKETS_PER_SESSION``:
the handshake is accepted and the socket closed at once with
:data:`TOO_MANY_SOCKETS_CLOSE_CODE`, which pages read as "too many open tabs"
(``static/js/site.js``) and the htmx ws extension does not retry.  A refused socket
reaches no consumer, no session and no channel layer.

The counts are per process, as what a socket costs is its own process's: behind several
daphne processes a client may hold the cap in each.  They need no clean-up: a socket counts
from its handshake until its application ends.

The address is the client's as daphne gives it: behind a proxy, daphne must run with
``--proxy-headers`` and the proxy must set ``X-Forwarded-For`` to the address it saw (or every
visitor is the proxy's one client).  An IPv6 address counts by its /64 network, which one
subscriber usually holds whole.  The session is the session cookie as sent: a client that
makes up a new one per socket is still one address.
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections import Counter
from typing import Any

from django.conf import settings
from django.http.cookie import parse_cookie

from remi_site import metrics

# Sent to the browser when a client holds too many sockets already; 4000-4999 are the codes
# left to applications (as 4401, accounts.sockets.LOGIN_ENDED_CLOSE_CODE), and 429 is HTTP's
# "Too Many Requests".
TOO_MANY_SOCKETS_CLOSE_CODE = 4429


def address_key(host: str) -> str:
    """The client address a socket counts against: an IPv4 address as it is, an IPv6 one by
    its /64 network; anything else (a unix socket's peer) as given."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def client_keys(scope: dict[str, Any]) -> list[tuple[str, str]]:
    """What the socket counts against: ("address", …) and ("session", …), either left out
    when the handshake does not say it."""
    keys = []
    client = scope.get("client")
    if client and client[0]:
        keys.append(("address", address_key(str(client[0]))))
    cookie = parse_cookie(_header(scope, b"cookie")).get(settings.SESSION_COOKIE_NAME, "")
    if cookie:
        # The session key is a credential: only a digest of it is kept.
        keys.append(("session", hashlib.sha256(cookie.encode()).hexdigest()))
    return keys


def limit_of(kind: str) -> int:
    if kind == "address":
        return settings.MAX_SOCKETS_PER_ADDRESS
    return settings.MAX_SOCKETS_PER_SESSION


async def refuse_too_many(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept the handshake and close at once with :data:`TOO_MANY_SOCKETS_CLOSE_CODE`: a
    refused handshake reaches a page as code 1006, which the htmx ws extension retries for
    ever, and which says nothing of why."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": TOO_MANY_SOCKETS_CLOSE_CODE})


class SocketLimits:
    """ASGI middleware: at most ``MAX_SOCKETS_PER_ADDRESS`` open WebSockets per client
    address and ``MAX_SOCKETS_PER_SESSION`` per session in this process."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.open: Counter[tuple[str, str]] = Counter()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        keys = client_keys(scope)
        # Checked and counted with no await in between: one event loop runs every socket of
        # the process, so two handshakes cannot both take the last place.
        if any(self.open[key] >= limit_of(key[0]) for key in keys):
            return await refuse_too_many(scope, receive, send)
        self.open.update(keys)
        sockets = metrics.OPEN_SOCKETS.labels(kind=metrics.socket_kind(scope.get("path", "")))
        sockets.inc()
        try:
            return await self.application(scope, receive, send)
        finally:
            sockets.dec()
            self.open.subtract(keys)
            for key in keys:
                if self.open[key] <= 0:
                    del self.open[key]
