"""Failed logins: when an address, a browser or anybody may try an account's password again.

Three counts, kept in the cache's Redis, replace allauth's (a count per name, the same for
everybody, so anyone could lock any player out; and 20 failures per address, so 20 mistyped
names locked out everyone behind one router, or behind a proxy whose clients' addresses
were not passed on, the whole site):

- **Per address and account.** ``LOGIN_FAILURES_PER_ADDRESS_AND_ACCOUNT`` failures are free;
  after that the address is locked out of that account for ``LOGIN_LOCK_SECONDS``, doubled
  with each further failure up to ``LOGIN_LOCK_MAX_SECONDS``. A browser that has logged in to
  the account before (accounts.known_devices) is counted on its own instead of with its
  address, so nobody else on its network can lock it out.
- **Per account, from browsers it never logged in from**: ``LOGIN_FAILURES_PER_ACCOUNT``
  failures from anywhere, then the same growing lock, for those browsers only. A guesser
  spread over many addresses is slowed down; the player's own browsers are not.
- **Per address, from browsers unknown to the account tried**: ``LOGIN_FAILURES_PER_ADDRESS``
  failures in ten minutes, at any name (one that is nobody's counts only here). A ceiling
  high enough for everyone behind one router or proxy, low enough that one address cannot
  try everybody's password.

A name that is nobody's still gets the per-address-and-name lock, the same as an account, so
the answers do not tell which names exist. A day without failures forgets a count that has
locked; an hour forgets the failures of an address (or browser) at an account that have not
(a mistyped password, and a guesser's tries at names spread over many addresses, do not sit
in Redis for a day: each is a key of its own).

An attempt is counted before its password is checked, in one Redis script with the check, so
guesses sent in parallel cannot all slip through before the first of them fails; a right
password then gives its attempt back. It also clears the count of its address (or browser)
and account, but not the account's or the address's: a guesser who owns an account must not
be able to wipe those by logging in to it between guesses.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from dataclasses import dataclass
from typing import Any, Literal

from allauth.account.utils import filter_users_by_email, filter_users_by_username
from allauth.core.internal import ratelimit
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from redis.commands.core import Script

from accounts import known_devices
from remi_site.redis_cache import cache_redis

# A count that has locked is forgotten after this long without a failure; an address's (or
# browser's) failures at an account that have not locked, after the shorter time.
FORGET_SECONDS = 24 * 3600
FORGET_UNLOCKED_SECONDS = 3600
# The per-address ceiling counts failures in a window this long, in buckets this wide.
ADDRESS_WINDOW_SECONDS = 600
ADDRESS_BUCKET_SECONDS = 60
# An email address may belong to more than one account (unverified duplicates); a login name
# never stands for more than these.
MAX_ACCOUNTS_PER_NAME = 4

Reason = Literal["address_and_account", "device_and_account", "account", "address"]


def client_address(request: HttpRequest) -> str:
    """The client's address as every limit sees it: allauth's reading (``REMOTE_ADDR``, which
    daphne's ``--proxy-headers`` sets from the proxy's ``X-Forwarded-For``), an IPv6 address
    narrowed to its /64 network so hopping between one network's addresses buys nothing.
    Raises PermissionDenied when there is none."""
    return ratelimit.get_ip(request)


@dataclass(frozen=True)
class BackOff:
    free: int  # failures before the first lock
    first_lock: int  # seconds
    longest_lock: int
    forget_unlocked: int = FORGET_SECONDS  # seconds without a failure that forget them
    forget_locked: int = FORGET_SECONDS

    def lock_seconds(self, failures: int) -> int:
        """How long a count of ``failures`` locks, from the last of them."""
        if failures < self.free:
            return 0
        # Capped before the power, so a count in the thousands is no big number.
        doublings = min(failures - self.free, 62)
        return min(self.longest_lock, self.first_lock * 2**doublings)

    def schedule(self) -> list[int]:
        """The locks from the first to the longest, for the Redis script: the lock of
        ``free + i`` failures is the i-th, or the last for any more."""
        locks = [self.lock_seconds(self.free)]
        while locks[-1] < self.longest_lock:
            locks.append(self.lock_seconds(self.free + len(locks)))
        return locks


def per_address_and_account() -> BackOff:
    return BackOff(
        settings.LOGIN_FAILURES_PER_ADDRESS_AND_ACCOUNT,
        settings.LOGIN_LOCK_SECONDS,
        settings.LOGIN_LOCK_MAX_SECONDS,
        forget_unlocked=FORGET_UNLOCKED_SECONDS,
    )


def per_account() -> BackOff:
    return BackOff(
        settings.LOGIN_FAILURES_PER_ACCOUNT,
        settings.LOGIN_LOCK_SECONDS,
        settings.LOGIN_LOCK_MAX_SECONDS,
    )


def wait_words(seconds: int) -> str:
    if seconds < 60:
        return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


REFUSALS: dict[Reason, Any] = {
    "address_and_account": _(
        "Too many failed logins for this account from your network. Wait %(wait)s and try "
        "again, or reset your password."
    ),
    "device_and_account": _(
        "Too many failed logins for this account from this browser. Wait %(wait)s and try "
        "again, or reset your password."
    ),
    "account": _(
        "Too many failed logins for this account. Wait %(wait)s and try again, log in from a "
        "browser you have logged in from before, or reset your password."
    ),
    "address": _("Too many failed logins from your network. Wait %(wait)s and try again."),
}


@dataclass(frozen=True)
class Refusal:
    """The attempt was not made: the password was not even looked at."""

    reason: Reason
    wait_seconds: int

    @property
    def message(self) -> str:
        return str(REFUSALS[self.reason]) % {"wait": wait_words(self.wait_seconds)}


# Checks every count and, when none refuses, counts the attempt in all of them: atomic, so no
# parallel attempt is checked between another's check and its count.
#   KEYS: the back-off records (ARGV[3] of them), then the address's buckets, oldest first.
#   ARGV: now, number of records, per record its free failures, its lock schedule
#         (BackOff.schedule, comma-separated) and the quiet seconds that forget its failures
#         before and after they locked; with buckets, the address's limit, bucket width,
#         oldest bucket's number and the buckets' time to live.
#   Returns {"refused", index of the count that refused (0 for the address), seconds to wait}
#   or {"counted", each record's previous last failure} (to give the attempt back).
TAKE = """
local now = tonumber(ARGV[1])
local records = tonumber(ARGV[2])
local at = 3
local counts = {}
local previous = {}
local ttls = {}
for i = 1, records do
    local free = tonumber(ARGV[at])
    local schedule = {}
    for seconds in string.gmatch(ARGV[at + 1], '%d+') do
        schedule[#schedule + 1] = tonumber(seconds)
    end
    local forget_unlocked = tonumber(ARGV[at + 2])
    local forget_locked = tonumber(ARGV[at + 3])
    at = at + 4
    local held = redis.call('HMGET', KEYS[i], 'n', 'last')
    local n = tonumber(held[1]) or 0
    local last = tonumber(held[2])
    previous[i] = held[2] or ''
    local forget = forget_unlocked
    if n >= free then
        forget = forget_locked
    end
    if last == nil or now - last >= forget then
        n = 0
    elseif n >= free then
        local wait = last + schedule[math.min(n - free + 1, #schedule)] - now
        if wait > 0 then
            return {'refused', i, math.ceil(wait)}
        end
    end
    counts[i] = n
    -- Kept while it can still matter: until forgotten, and past its longest lock.
    if n + 1 >= free then
        ttls[i] = forget_locked + schedule[#schedule]
    else
        ttls[i] = forget_unlocked
    end
end
local buckets = #KEYS - records
if buckets > 0 then
    local limit = tonumber(ARGV[at])
    local width = tonumber(ARGV[at + 1])
    local oldest = tonumber(ARGV[at + 2])
    local sizes = {}
    local total = 0
    for j = 1, buckets do
        sizes[j] = tonumber(redis.call('GET', KEYS[records + j])) or 0
        total = total + sizes[j]
    end
    if total >= limit then
        -- Wait until enough of the oldest buckets have left the window.
        for j = 1, buckets do
            total = total - sizes[j]
            if total < limit then
                return {'refused', 0, math.ceil((oldest + buckets + j - 1) * width - now)}
            end
        end
    end
    redis.call('INCR', KEYS[#KEYS])
    redis.call('EXPIRE', KEYS[#KEYS], ARGV[at + 3])
end
for i = 1, records do
    redis.call('HSET', KEYS[i], 'n', counts[i] + 1, 'last', ARGV[1])
    redis.call('EXPIRE', KEYS[i], math.ceil(ttls[i]))
end
local answer = {'counted'}
for i = 1, records do
    answer[i + 1] = previous[i]
end
return answer
"""

# Gives a right password's attempt back: its own record (address or browser, and account)
# is cleared; the shared ones lose the one attempt, and their last failure goes back to what
# it was if no other attempt came since.
#   KEYS: the own record, then the shared records (ARGV[2] of them), then the address bucket
#         the attempt was counted in, if any.
#   ARGV: the attempt's time, number of shared records, their previous last failures.
GIVE_BACK = """
redis.call('DEL', KEYS[1])
local shared = tonumber(ARGV[2])
for i = 1, shared do
    local key = KEYS[1 + i]
    local n = tonumber(redis.call('HGET', key, 'n')) or 0
    if n > 0 then
        redis.call('HSET', key, 'n', n - 1)
    end
    if redis.call('HGET', key, 'last') == ARGV[1] then
        redis.call('HSET', key, 'last', ARGV[2 + i])
    end
end
if #KEYS > 1 + shared then
    if (tonumber(redis.call('GET', KEYS[#KEYS])) or 0) > 0 then
        redis.call('DECR', KEYS[#KEYS])
    end
end
return 1
"""

_scripts: dict[str, Script] = {}


def _run(source: str, keys: list[str], args: list[Any]) -> Any:
    client = cache_redis()
    script = _scripts.get(source)
    if script is None:
        # Script sends the hash (EVALSHA) and the source only when Redis has not seen it.
        script = _scripts[source] = client.register_script(source)
    return script(keys=keys, args=args, client=client)


def _digest(text: str) -> str:
    # Names and addresses come from outside: keys hold a fixed-size digest of them instead.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _key(*parts: str) -> str:
    return cache.make_key(":".join(("login-limits", *parts)))


def login_name(credentials: dict[str, Any]) -> str:
    # allauth passes the typed name as "email" when it looks like one, and as "username" too.
    return str(credentials.get("email") or credentials.get("username") or "")


def accounts_named(credentials: dict[str, Any]) -> list[int]:
    """The accounts a login name may stand for: a username (whatever its case) or an email."""
    name = login_name(credentials)
    if not name:
        return []
    found = set(filter_users_by_username(name).values_list("pk", flat=True)[:MAX_ACCOUNTS_PER_NAME])
    if credentials.get("email"):
        found.update(user.pk for user in filter_users_by_email(name))
    return sorted(found)[:MAX_ACCOUNTS_PER_NAME]


@dataclass(frozen=True)
class Attempt:
    """One login attempt, counted against its limits until its password proves right."""

    at: str
    own_key: str
    shared_keys: tuple[str, ...]
    previous_lasts: tuple[str, ...]
    address_bucket: str | None

    def succeeded(self) -> None:
        keys = [self.own_key, *self.shared_keys]
        if self.address_bucket:
            keys.append(self.address_bucket)
        _run(GIVE_BACK, keys, [self.at, len(self.shared_keys), *self.previous_lasts])


def start(request: HttpRequest, credentials: dict[str, Any]) -> Attempt | Refusal:
    """Count a login attempt with ``credentials`` from ``request``'s browser and address, or
    say why it may not be made now and for how long."""
    now = time.time()
    accounts = accounts_named(credentials)
    if accounts:
        account = ",".join(str(pk) for pk in accounts)
    else:
        account = "name:" + _digest(login_name(credentials).lower())
    device = known_devices.read(request)
    records: list[tuple[str, BackOff]]
    if device is not None and device.knows(accounts):
        reasons: list[Reason] = ["device_and_account"]
        records = [(_key("device", _digest(device.id), account), per_address_and_account())]
        buckets: list[str] = []
    else:
        address = client_address(request)
        reasons = ["address_and_account"]
        records = [(_key("address", _digest(address), account), per_address_and_account())]
        for pk in accounts:
            reasons.append("account")
            records.append((_key("account", str(pk)), per_account()))
        newest = int(now // ADDRESS_BUCKET_SECONDS)
        count = ADDRESS_WINDOW_SECONDS // ADDRESS_BUCKET_SECONDS
        buckets = [
            _key("address-failures", _digest(address), str(number))
            for number in range(newest - count + 1, newest + 1)
        ]
    at = repr(now)
    args: list[Any] = [at, len(records)]
    for _record, rule in records:
        schedule = ",".join(map(str, rule.schedule()))
        args += [rule.free, schedule, rule.forget_unlocked, rule.forget_locked]
    if buckets:
        args += [
            settings.LOGIN_FAILURES_PER_ADDRESS,
            ADDRESS_BUCKET_SECONDS,
            newest - len(buckets) + 1,
            ADDRESS_WINDOW_SECONDS + ADDRESS_BUCKET_SECONDS,
        ]
    answer = _run(TAKE, [key for key, _rule in records] + buckets, args)
    if answer[0] == b"refused":
        index, wait = int(answer[1]), max(1, int(answer[2]))
        return Refusal("address" if index == 0 else reasons[index - 1], wait)
    return Attempt(
        at=at,
        own_key=records[0][0],
        shared_keys=tuple(key for key, _rule in records[1:]),
        previous_lasts=tuple(value.decode() for value in answer[2:]),
        address_bucket=buckets[-1] if buckets else None,
    )


def forgive(request: HttpRequest, user_id: int) -> None:
    """Clear the account's own count, and this browser's and address's count for it: the
    player just proved the account is theirs (a password reset by email)."""
    keys = [_key("account", str(user_id))]
    with contextlib.suppress(PermissionDenied):  # no address, so no count of it to clear
        keys.append(_key("address", _digest(client_address(request)), str(user_id)))
    device = known_devices.read(request)
    if device is not None:
        keys.append(_key("device", _digest(device.id), str(user_id)))
    cache_redis().delete(*keys)
