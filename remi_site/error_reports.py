"""Error reports to a Sentry-compatible service, when ``SENTRY_DSN`` is set (off otherwise).

Reports must keep the game's secrets as the logs do: no local variables of the failing frames
(a move's frames hold racks and the wall), no request bodies (a move form names tiles), no
cookies or addresses, and no SQL breadcrumbs (a game's stored state is a query parameter).
What is left is the exception, its stack of file names and lines, the log lines before it and
the ids the logs carry.
"""

from __future__ import annotations

from typing import Any


def drop_queries(crumb: dict[str, Any], _hint: dict[str, Any]) -> dict[str, Any] | None:
    return None if crumb.get("category") == "query" else crumb


def start(dsn: str, *, environment: str, release: str | None) -> None:
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_breadcrumb=drop_queries,
        traces_sample_rate=0,
    )
