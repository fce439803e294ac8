"""Only pages of this site may open its WebSockets.

Channels' ``AllowedHostsOriginValidator`` compares the Origin's host name alone, so a page
served by any other program on the same host (another port, plain http) could open a socket
with the player's cookies and read their rack. Here the Origin must be the site's own origin —
the scheme, host and port the handshake itself was addressed to — or one listed in
``CSRF_TRUSTED_ORIGINS``, the same two sources Django's CSRF check trusts for a POST.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from remi_site.consumers import refuse_handshake

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def parse_origin(text: str | None) -> Origin | None:
    """(scheme, host, port) of an http(s) origin, with the scheme's port filled in."""
    if not text:
        return None
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the page that would have loaded this socket from this very site."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    secure = scope.get("scheme") in ("wss", "https")
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header and _header(scope, b"x-forwarded-proto") == proxy_header[1]:
        secure = True  # TLS ended at the trusted proxy, as for HTTP requests
    return parse_origin(f"{'https' if secure else 'http'}://{host}")


def origin_allowed(scope: dict[str, Any]) -> bool:
    origin = parse_origin(_header(scope, b"origin"))
    if origin is None:
        return False
    if origin == own_origin(scope):
        return True
    return origin in {parse_origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS}


class SameOriginValidator:
    """ASGI middleware: refuse the WebSocket handshake unless :func:`origin_allowed`."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await refuse_handshake(scope, receive, send)
        return await self.application(scope, receive, send)
