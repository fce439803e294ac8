"""Signed unsubscribe tokens: the link in an email is the only credential needed to turn
that one kind of email off (no login, so it works from any mail client)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from notifications.kinds import Kind

SALT = "notifications.unsubscribe"


class BadToken(ValueError):
    """The token was not made by this site, was altered, or names nothing we know."""


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    kind: str


def make_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": str(kind)}, salt=SALT, compress=True)


def read_token(token: str) -> Unsubscribe:
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        raise BadToken("bad signature") from None
    if not isinstance(data, dict):
        raise BadToken("not a token")
    user_id, kind = data.get("u"), data.get("k")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or kind not in Kind.values:
        raise BadToken("unknown contents")
    return Unsubscribe(user_id=user_id, kind=kind)
