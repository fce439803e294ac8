"""Settings for the Remi site, all read from the environment.

Defaults give a working development site on a fresh checkout: SQLite under ``var/`` and the
embedded Redis that ``./bin/run`` starts on ``var/redis.sock``. Production sets the variables
listed in docs/configuration.md. A bad value stops start-up with a message naming the variable.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from remi_site.env import env_bool, env_int, env_list, env_optional, env_path, env_str
from remi_site.paths import BASE_DIR, embedded_redis_socket, var_dir
from remi_site.redis_urls import OWN_URL_VARIABLES, redis_settings

# --- Core -----------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str(
    "SECRET_KEY",
    # Only a development site may run with a key that is public in the repository.
    "django-insecure-remi-development-only-key-never-use-it-in-production" if DEBUG else None,
)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must list the site's host names (comma-separated) when DEBUG is off."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

VAR_DIR = var_dir()

INSTALLED_APPS = [
    # daphne first: it replaces runserver with an ASGI server that also speaks WebSocket.
    "daphne",
    # django.contrib.admin, with a site that lets no changelist filter on what it does not
    # declare (remi_site/admin_site.py).
    "remi_site.admin_site.RemiAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "notifications",
    "tournaments",
    "chat",
    "reviews",
    "bot_api",
]

MIDDLEWARE = [
    # /livez and /readyz first: no redirect, host check, session or Redis on the way to them.
    "remi_site.probes.probe_middleware",
    "django.middleware.security.SecurityMiddleware",
    # A request id in every log line of the request, and in the answer (docs/operations.md).
    "remi_site.json_logs.request_context_middleware",
    "remi_site.middleware.overlong_url_middleware",
    # WhiteNoise serves static files from daphne itself, so no separate file server is needed.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Counts requests per client address to warn of a proxy that hides them (after WhiteNoise,
    # so static files, served by then, cost it nothing).
    "remi_site.address_watch.single_address_watch_middleware",
    # Pages gzipped on the way out (after WhiteNoise, which compresses static files itself).
    "remi_site.compression.PageCompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The signed-in user's id and the game's id into every log line of the request.
    "remi_site.json_logs.ViewContextMiddleware",
    "accounts.middleware.preferred_language_middleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

# The games on offer, in the order the site lists them (the first is the default): each a
# plug-in module exposing its engine (GAME) and its presentation (PRESENTATION); a new game
# is one more line (games/plugins.py).
REMI_GAMES = [
    "games.presenters.remi",
    "games.presenters.rummikub",
    "games.presenters.basic_rummy",
    "games.presenters.thai_rummy",
]

ROOT_URLCONF = "remi_site.urls"
ASGI_APPLICATION = "remi_site.asgi.application"
WSGI_APPLICATION = "remi_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Project templates come first so they override allauth's and Django's own.
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # What django-template-partials sets up by itself, with the plug-in games' own
            # templates folders searched after the project's (games/plugins.py).
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "games.plugins.TemplateLoader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.waiting_games",
            ],
        },
    },
]

# Every part a page reuses ({% reuse %}, games.presenters.fragment_reuse) is rendered again
# and compared: on in the tests, so that a key missing something the part reads fails them.
FRAGMENT_REUSE_CHECK = env_bool("FRAGMENT_REUSE_CHECK", False)
# How much reused HTML a process keeps, in characters (about 100 KB per live table it serves).
FRAGMENT_REUSE_MAX_CHARACTERS = env_int(
    "FRAGMENT_REUSE_MAX_CHARACTERS", 16_000_000, minimum=100_000
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Database -------------------------------------------------------------------------------

# SQLite is shared by a web process and a Celery worker writing at once: WAL lets readers run
# beside a writer, IMMEDIATE transactions take the write lock up front (no deadlock when two
# transactions both try to upgrade from reading), and the busy timeout makes a writer wait
# for the lock instead of failing at once.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
    ),
}


def _database_from_url(url: str) -> dict[str, Any]:
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url))
    except (ValueError, dj_database_url.UnknownSchemeError) as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a usable database URL: {error}") from None
    engine = config["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    elif engine != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            f"DATABASE_URL must be a postgres:// or sqlite:// URL; {engine} is not supported."
        )
    if not config.get("NAME"):
        raise ImproperlyConfigured("DATABASE_URL must name a database.")
    config["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0)
    config["CONN_HEALTH_CHECKS"] = config["CONN_MAX_AGE"] > 0
    pool_size = env_int("DATABASE_POOL_SIZE", 0, minimum=0)
    if pool_size and engine == "django.db.backends.postgresql":
        config["OPTIONS"] = {**config.get("OPTIONS", {}), "pool": _pool_options(pool_size)}
        if config["CONN_MAX_AGE"]:
            raise ImproperlyConfigured(
                "DATABASE_POOL_SIZE and DATABASE_CONN_MAX_AGE exclude each other: a pooled "
                "connection goes back to the pool after each request. Unset one of them."
            )
    return config


def _pool_options(size: int) -> dict[str, Any]:
    """A process's PostgreSQL connections, shared by its threads (psycopg_pool).  daphne runs
    each request on a thread of its own: without a pool each one opens a connection (slow,
    and a busy minute piles them past the server's max_connections if they are kept); with one,
    at most ``size`` are open and a thread waits up to ``timeout`` seconds for a free one."""
    return {"min_size": min(2, size), "max_size": size, "timeout": 20}


def _default_sqlite(path: Path) -> dict[str, Any]:
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": SQLITE_OPTIONS,
        # A file, not Django's default in-memory test database, so a Celery worker or a
        # daphne started by a test can open the same test database as the test itself; named
        # after the process so two test runs in one checkout never share it.
        "TEST": {"NAME": Path(tempfile.gettempdir()) / f"remi-test-{os.getpid()}.sqlite3"},
    }


_database_url = env_optional("DATABASE_URL")
DATABASES = {
    "default": _database_from_url(_database_url)
    if _database_url
    else _default_sqlite(VAR_DIR / "db.sqlite3")
}
if not _database_url:
    VAR_DIR.mkdir(parents=True, exist_ok=True)

# --- Redis: channel layer, cache, Celery broker ---------------------------------------------

# Unset means the embedded redis-server (remi_site.embedded_redis) on a unix socket in var/.
# Each use may have a URL of its own (remi_site/redis_urls.py, docs/operations.md); a use
# without one takes its database from REDIS_URL as before.
_own_redis = {
    use: value
    for use, variable in OWN_URL_VARIABLES.items()
    if (value := env_optional(variable)) is not None
}
EMBEDDED_REDIS = env_optional("REDIS_URL") is None and len(_own_redis) < len(OWN_URL_VARIABLES)
_redis = redis_settings(
    env_optional("REDIS_URL")
    or (None if len(_own_redis) == len(OWN_URL_VARIABLES) else f"unix://{embedded_redis_socket()}"),
    own=_own_redis,
)
REDIS_URL = _redis.redis_url
REDIS_USE_URLS = _redis.use_urls
CACHES = _redis.caches
CHANNEL_LAYERS = _redis.channel_layers
CELERY_BROKER_URL = _redis.celery_broker_url
# Sessions are read from the cache and written through to the database: a request (every
# move) reads its session from Redis instead of querying for it, and a flushed cache only
# costs one read each.  Ending a session must go through the store (accounts.admin).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- Celery ---------------------------------------------------------------------------------

CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True  # the worker may start before Redis answers
CELERY_TASK_IGNORE_RESULT = True  # tasks report through the database, not a result backend
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A task lost with its worker is delivered again; tasks are idempotent, so that is safe.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE_FILENAME = str(env_path("CELERY_BEAT_SCHEDULE_FILE", VAR_DIR / "celerybeat"))
HEARTBEAT_SECONDS = env_int("HEARTBEAT_SECONDS", 30, minimum=1)

# --- Bots and deadlines ---------------------------------------------------------------------

# A bot at a table with people waits this long before moving, so its moves can be followed.
BOT_MOVE_DELAY_SECONDS = env_int("BOT_MOVE_DELAY_MS", 800, minimum=0) / 1000
# The review of a finished game (reviews/): CPU time the exact planner may spend on one
# position before the review falls back to the best play found (docs/review.md).
REVIEW_POSITION_MS = env_int("REVIEW_POSITION_MS", 2000, minimum=1)
# A bot turn untouched this long is re-queued by the sweep (worker died, message lost).
BOT_STUCK_SECONDS = env_int("BOT_STUCK_SECONDS", 20, minimum=1)
BOT_SWEEP_SECONDS = env_int("BOT_SWEEP_SECONDS", 10, minimum=1)
DEADLINE_SWEEP_SECONDS = env_int("DEADLINE_SWEEP_SECONDS", 30, minimum=1)
# Clocks (games/clocks/seat_clocks.py): the most turns one sweep plays (the next sweep goes
# on), how long a claim on a due clock holds before another worker may take it over, and how
# far ahead a deadline's on-time task is queued (below Redis's one-hour visibility timeout).
DEADLINE_SWEEP_BATCH = env_int("DEADLINE_SWEEP_BATCH", 2000, minimum=1)
CLOCK_LEASE_SECONDS = env_int("CLOCK_LEASE_SECONDS", 300, minimum=1)
CLOCK_ETA_HORIZON_SECONDS = env_int("CLOCK_ETA_HORIZON_SECONDS", 3000, minimum=1)

CELERY_BEAT_SCHEDULE = {
    # Beat -> broker -> worker -> cache: /healthz shows when this last went all the way round.
    "heartbeat": {"task": "remi_site.tasks.record_heartbeat", "schedule": HEARTBEAT_SECONDS},
    "bot-turns": {"task": "games.tasks.sweep_bot_turns", "schedule": BOT_SWEEP_SECONDS},
    "deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": DEADLINE_SWEEP_SECONDS},
    # Notifications: "time running out" reminders and the daily digests.
    "reminders": {
        "task": "notifications.tasks.sweep_reminders",
        "schedule": env_int("REMINDER_SWEEP_SECONDS", 60, minimum=1),
    },
    "digests": {
        "task": "notifications.tasks.sweep_digests",
        "schedule": env_int("DIGEST_SWEEP_SECONDS", 300, minimum=1),
    },
    # Correspondence tournaments: reminders before a round's deadline, and the flag for
    # adjudication once it has passed.
    "tournament-rounds": {
        "task": "tournaments.tasks.sweep_round_deadlines",
        "schedule": env_int("ROUND_SWEEP_SECONDS", 300, minimum=1),
    },
}
HEALTHZ_CELERY_TIMEOUT = 1.0

# --- Tables ---------------------------------------------------------------------------------

# One player may own this many tables that are not finished (waiting for players or playing),
# and create at most this many a minute (counted in the cache): one player cannot fill the
# lobby with tables nobody else can see past.
MAX_OPEN_TABLES_PER_USER = env_int("MAX_OPEN_TABLES_PER_USER", 5, minimum=1)
TABLE_CREATIONS_PER_MINUTE = env_int("TABLE_CREATIONS_PER_MINUTE", 3, minimum=1)
# Open WebSockets one client may hold in one web process (remi_site/socket_limits.py): a page
# holds one to three (its live part, the chat, the badge of games waiting).  An address is
# shared by the people behind one network's router, so its cap is the larger.
MAX_SOCKETS_PER_ADDRESS = env_int("MAX_SOCKETS_PER_ADDRESS", 100, minimum=1)
MAX_SOCKETS_PER_SESSION = env_int("MAX_SOCKETS_PER_SESSION", 30, minimum=1)

# --- Accounts -------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Players can play straight after signing up; the confirmation email still goes out.
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Remi] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_USER_DISPLAY = "accounts.models.display_name_of"
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Failed logins are limited by accounts.login_limits (its docstring and docs/security.md, "Failed
# logins", say why each count is shaped so), in the Redis cache:
# - per address and account (a browser the account logged in from counts on its own): this
#   many failures, then a lock that starts at LOGIN_LOCK_SECONDS and doubles with each further
#   failure up to LOGIN_LOCK_MAX_SECONDS;
LOGIN_FAILURES_PER_ADDRESS_AND_ACCOUNT = env_int(
    "LOGIN_FAILURES_PER_ADDRESS_AND_ACCOUNT", 5, minimum=1
)
# - per account, from browsers it never logged in from, wherever they are: the same back-off;
LOGIN_FAILURES_PER_ACCOUNT = env_int("LOGIN_FAILURES_PER_ACCOUNT", 20, minimum=1)
# - per address, from browsers unknown to the account tried: this many in ten minutes, at any
#   name (many players may share one address).
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 100, minimum=1)
LOGIN_LOCK_SECONDS = env_int("LOGIN_LOCK_SECONDS", 60, minimum=1)
LOGIN_LOCK_MAX_SECONDS = env_int("LOGIN_LOCK_MAX_SECONDS", 3600, minimum=1)
if LOGIN_LOCK_MAX_SECONDS < LOGIN_LOCK_SECONDS:
    raise ImproperlyConfigured(
        f"LOGIN_LOCK_MAX_SECONDS ({LOGIN_LOCK_MAX_SECONDS}) must be at least "
        f"LOGIN_LOCK_SECONDS ({LOGIN_LOCK_SECONDS})."
    )
# Every login form post per address, right or wrong: only a flood guard against password
# hashing on demand, set above what the failure limits let through so that it never decides
# who gets in.
LOGIN_POSTS_PER_ADDRESS_PER_MINUTE = env_int("LOGIN_POSTS_PER_ADDRESS_PER_MINUTE", 60, minimum=1)
# allauth's defaults stay for everything not named here (sign-up, password reset...). Its own
# count of failed logins is off: it counts per name alone, the lever that let anybody lock a
# player out.
ACCOUNT_RATE_LIMITS = {
    "login_failed": None,
    "login": f"{LOGIN_POSTS_PER_ADDRESS_PER_MINUTE}/m/ip",
}

# --- Email ----------------------------------------------------------------------------------

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1, maximum=65535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on; pick one.")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Remi <remi@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)


def _default_site_url() -> str:
    # Emails are written far from any request, so their links need the site's address.
    if DEBUG:  # the port ./bin/run serves on (the Procfile's WEB_PORT)
        return f"http://localhost:{env_int('WEB_PORT', 8000, minimum=1, maximum=65535)}"
    plain = [host for host in ALLOWED_HOSTS if not host.startswith(".") and "*" not in host]
    if not plain:
        raise ImproperlyConfigured("SITE_URL must be set when ALLOWED_HOSTS has no plain host.")
    return f"https://{plain[0]}"


SITE_URL = (env_optional("SITE_URL") or _default_site_url()).rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL must start with http:// or https://, not {SITE_URL!r}.")

# --- Internationalisation -------------------------------------------------------------------

# English for a browser that asks for none of these; LocaleMiddleware picks Romanian or
# Hungarian from the browser's Accept-Language, the language cookie (the switcher at the top
# of every page) or, once logged in, the profile (accounts/middleware.py).
LANGUAGE_CODE = env_str("LANGUAGE_CODE", "en")
# Each language named in itself: the switcher is for someone who cannot read the page yet.
LANGUAGES = [("en", "English"), ("ro", "Română"), ("hu", "Magyar")]
if LANGUAGE_CODE not in dict(LANGUAGES):
    raise ImproperlyConfigured(f"LANGUAGE_CODE must be one of {', '.join(dict(LANGUAGES))}.")
TIME_ZONE = env_str("TIME_ZONE", "Europe/Bucharest")
USE_I18N = True
USE_TZ = True
# The site's catalogues (locale/ro, locale/hu). The .mo files are compiled from the .po files
# by remi_site/catalogues.py (./bin/run and the test suite call it), not kept in git.
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    # Each game plug-in's own static folder (games/plugins.py), after the project's.
    "games.plugins.StaticFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
]
STATIC_ROOT = env_path("STATIC_ROOT", VAR_DIR / "static")
if DEBUG:
    # WhiteNoise serves straight from the finders in development; the empty root only keeps
    # it from warning that collectstatic never ran.
    WHITENOISE_USE_FINDERS = True
    WHITENOISE_AUTOREFRESH = True
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, minified, compressed names need `manage.py collectstatic` (our CSS and JS
        # minified: remi_site/static_storage.py); development serves the files as written.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "remi_site.static_storage.MinifiedManifestStaticFilesStorage"
    },
}

# --- Security (production defaults follow DEBUG) ------------------------------------------

if env_bool("USE_X_FORWARDED_PROTO", False):
    # Only behind a reverse proxy that sets this header itself; otherwise clients could forge it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]  # load balancers probe over plain HTTP
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
X_FRAME_OPTIONS = "DENY"

# --- Client addresses -----------------------------------------------------------------------

# When this share (percent) of at least this many requests in ten minutes comes from one
# client address, log a warning and show it to staff in /healthz: the sign of a reverse proxy
# that does not pass on its clients' addresses (remi_site/address_watch.py). Off in
# development, where every request comes from the developer's own machine.
SINGLE_ADDRESS_WARNING = env_bool("SINGLE_ADDRESS_WARNING", not DEBUG)
SINGLE_ADDRESS_WARNING_PERCENT = env_int(
    "SINGLE_ADDRESS_WARNING_PERCENT", 90, minimum=50, maximum=100
)
SINGLE_ADDRESS_WARNING_MIN_REQUESTS = env_int("SINGLE_ADDRESS_WARNING_MIN_REQUESTS", 200, minimum=1)

# --- Logging --------------------------------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")
# "json": one JSON object per line (remi_site/json_logs.py); "plain": text. UTC either way.
LOG_FORMAT = env_str("LOG_FORMAT", "plain").lower()
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured("LOG_FORMAT must be plain or json.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {
            "()": "remi_site.json_logs.UtcFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s: %(message)s",
        },
        "json": {"()": "remi_site.json_logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "filters": {"client_errors": {"()": "remi_site.logging_filters.ClientErrorWithoutTraceback"}},
    "loggers": {
        "django.request": {"filters": ["client_errors"]},
        # A request for a host name the site does not serve is answered 400; logging each one
        # (with a traceback) would let any scanner fill the log.
        "django.security.DisallowedHost": {"level": "CRITICAL", "propagate": True},
        # JSON only through the root's handler: Django's own text handler (DEBUG) is dropped.
        **({"django": {"handlers": [], "level": "INFO"}} if LOG_FORMAT == "json" else {}),
    },
}
# One JSON line per HTTP request (remi_site/json_logs.py); run daphne with -v 0 then, so its
# own text access log is off.
ACCESS_LOG = env_bool("ACCESS_LOG", LOG_FORMAT == "json")

# With JSON logs the worker and beat log through the configuration above, not Celery's own
# text format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"

# --- Error reports ------------------------------------------------------------------------

SENTRY_DSN = env_optional("SENTRY_DSN")
if SENTRY_DSN:
    from remi_site import error_reports

    error_reports.start(
        SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "development" if DEBUG else "production"),
        release=env_optional("SENTRY_RELEASE"),
    )

# --- Metrics --------------------------------------------------------------------------------

# /metrics (remi_site/metrics.py) answers only a scraper that sends this as a bearer token;
# unset, the endpoint does not exist.
METRICS_TOKEN = env_optional("METRICS_TOKEN")
