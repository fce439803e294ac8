"""Bot API tokens: made by the account's owner, shown once, kept only as a hash, revoked at
will; and the per-token rate limit."""

from __future__ import annotations

import hashlib
import secrets
import time

from django.conf import settings
from django.utils import timezone

from bot_api.models import BotToken
from remi_site.redis_cache import cache_redis

# Every token starts so, so a token pasted somewhere is recognisable (and a secret scanner
# can be taught it).
PREFIX = "remi_"

# Requests a token may make per window (moves, answers, streams opened); a move every 0.1 s
# on average, far more than any game needs, far less than a loop gone wrong sends.
RATE_LIMIT = getattr(settings, "BOT_API_RATE_LIMIT", 600)
RATE_WINDOW_SECONDS = 60


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_token(user, name: str) -> tuple[BotToken, str]:
    """A new token for ``user``; the key is returned here and never again."""
    key = PREFIX + secrets.token_urlsafe(32)
    token = BotToken.objects.create(
        user=user, name=name, key_hash=digest(key), prefix=key[: len(PREFIX) + 4]
    )
    return token, key


def revoke(token: BotToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])


def token_for(key: str) -> BotToken | None:
    """The active token with this key, with its user; None for a revoked or unknown key, a
    key of an account that is no longer a bot, or an account that cannot log in."""
    if not key.startswith(PREFIX):
        return None
    token = (
        BotToken.objects.select_related("user")
        .filter(key_hash=digest(key), revoked_at__isnull=True)
        .first()
    )
    if token is None or not token.user.is_bot or not token.user.is_active:
        return None
    return token


def over_limit(token: BotToken) -> int:
    """Counts a request of ``token``; the seconds to wait when the window's allowance is spent
    (0: go ahead).  A fixed window per token in Redis, counted in one round trip."""
    window = int(time.time()) // RATE_WINDOW_SECONDS
    from django.core.cache import cache

    key = cache.make_key(f"botapi:rate:{token.pk}:{window}")
    redis = cache_redis()
    with redis.pipeline() as pipe:
        pipe.incr(key)
        pipe.expire(key, RATE_WINDOW_SECONDS * 2)
        count, _ = pipe.execute()
    if count > RATE_LIMIT:
        return RATE_WINDOW_SECONDS - int(time.time()) % RATE_WINDOW_SECONDS
    return 0
