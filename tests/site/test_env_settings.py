"""Settings come from the environment and a bad value stops start-up, naming the variable."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from remi_site.env import env_bool, env_int, env_list, env_path, env_str
from remi_site.paths import BASE_DIR
from tests.conftest import subprocess_env

# The production example in docs/operations.md: `manage.py check --deploy` must pass with it.
PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "x7!kq2$remi-production-example-key-9f3b1c8d0e6a4b2c7d5e1f0a9b8c7d6e",
    "ALLOWED_HOSTS": "remi.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://remi.example.org",
    "USE_X_FORWARDED_PROTO": "true",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "EMAIL_HOST": "smtp.example.org",
    "DEFAULT_FROM_EMAIL": "Remi <remi@example.org>",
}


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, object]:
    """Execute the settings module afresh under ``env`` (the live settings stay untouched)."""
    for name in (
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DATABASE_URL",
        "REDIS_URL",
        "CHANNEL_REDIS_URL",
        "CACHE_REDIS_URL",
        "BROKER_URL",
        "REMI_VAR_DIR",
        "DATABASE_POOL_SIZE",
        "DATABASE_CONN_MAX_AGE",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(BASE_DIR / "remi_site" / "settings.py"))


def test_env_bool_accepts_common_spellings_and_names_the_variable_on_nonsense():
    assert env_bool("X", False, environ={"X": "Yes"}) is True
    assert env_bool("X", True, environ={"X": "off"}) is False
    assert env_bool("X", True, environ={}) is True
    with pytest.raises(ImproperlyConfigured, match=r"^X must be a boolean"):
        env_bool("X", False, environ={"X": "maybe"})


def test_env_int_checks_number_and_bounds():
    assert env_int("PORT", 25, environ={"PORT": "587"}) == 587
    with pytest.raises(ImproperlyConfigured, match="PORT must be a whole number"):
        env_int("PORT", 25, environ={"PORT": "five"})
    with pytest.raises(ImproperlyConfigured, match="PORT must be at most 65535"):
        env_int("PORT", 25, maximum=65535, environ={"PORT": "70000"})


def test_env_list_and_path_and_required_string():
    assert env_list("HOSTS", environ={"HOSTS": "a.org, b.org,"}) == ["a.org", "b.org"]
    assert env_path("DIR", Path("/d"), environ={"DIR": "/srv/remi"}) == Path("/srv/remi")
    with pytest.raises(ImproperlyConfigured, match="DIR must be an absolute path"):
        env_path("DIR", Path("/d"), environ={"DIR": "relative/dir"})
    with pytest.raises(ImproperlyConfigured, match="TOKEN must be set"):
        env_str("TOKEN", environ={"TOKEN": "  "})


def test_defaults_give_sqlite_in_wal_mode_and_the_embedded_redis(monkeypatch):
    loaded = load_settings(monkeypatch)
    database = loaded["DATABASES"]["default"]  # type: ignore[index]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]
    assert "busy_timeout" in database["OPTIONS"]["init_command"]
    assert loaded["REDIS_URL"] == f"unix://{BASE_DIR / 'var' / 'redis.sock'}?db=0"
    assert loaded["CELERY_BROKER_URL"] == (
        f"redis+socket://{BASE_DIR / 'var' / 'redis.sock'}?virtual_host=2"
    )
    assert loaded["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_emails_link_to_the_port_the_development_site_runs_on(monkeypatch):
    """Issue 30, fault 5: with WEB_PORT=8101 the links pointed to port 8000."""
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("WEB_PORT", raising=False)
    assert load_settings(monkeypatch, DEBUG="true")["SITE_URL"] == "http://localhost:8000"
    loaded = load_settings(monkeypatch, DEBUG="true", WEB_PORT="8101")
    assert loaded["SITE_URL"] == "http://localhost:8101"
    chosen = load_settings(monkeypatch, DEBUG="true", WEB_PORT="8101", SITE_URL="http://x.test/")
    assert chosen["SITE_URL"] == "http://x.test"


def test_the_single_address_warning_is_on_in_production_and_off_in_development(monkeypatch):
    assert load_settings(monkeypatch)["SINGLE_ADDRESS_WARNING"] is False
    production = load_settings(monkeypatch, **PRODUCTION_ENV)
    assert production["SINGLE_ADDRESS_WARNING"] is True
    assert production["SINGLE_ADDRESS_WARNING_PERCENT"] == 90


def test_each_redis_use_gets_its_own_database_number(monkeypatch):
    loaded = load_settings(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/7")
    layer = loaded["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"][0]["address"]  # type: ignore[index]
    assert layer == "redis://127.0.0.1:6379/7"
    assert loaded["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/8"  # type: ignore[index]
    assert loaded["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/9"


def test_each_redis_use_may_name_its_own_url_and_redis_url_is_then_not_needed(monkeypatch):
    loaded = load_settings(
        monkeypatch,
        CHANNEL_REDIS_URL="redis://channels.internal:6379/0",
        CACHE_REDIS_URL="redis://cache.internal:6379/0",
        BROKER_URL="redis://broker.internal:6379/0",
    )
    layer = loaded["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"][0]["address"]  # type: ignore[index]
    assert layer == "redis://channels.internal:6379/0"
    assert loaded["CACHES"]["default"]["LOCATION"] == "redis://cache.internal:6379/0"  # type: ignore[index]
    assert loaded["CELERY_BROKER_URL"] == "redis://broker.internal:6379/0"
    assert loaded["EMBEDDED_REDIS"] is False
    # One use of its own only: the other two still come from REDIS_URL's numbers.
    loaded = load_settings(
        monkeypatch, REDIS_URL="redis://127.0.0.1:6379/7", BROKER_URL="redis://b.internal/0"
    )
    assert loaded["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/8"  # type: ignore[index]
    assert loaded["CELERY_BROKER_URL"] == "redis://b.internal/0"


def test_database_url_selects_postgresql(monkeypatch):
    loaded = load_settings(monkeypatch, DATABASE_URL="postgres://remi:pw@db.internal:5433/remi")
    database = loaded["DATABASES"]["default"]  # type: ignore[index]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["NAME"]) == ("db.internal", 5433, "remi")


def test_a_pool_size_pools_postgresql_connections_and_sqlite_ignores_it(monkeypatch):
    url = "postgres://remi:pw@db.internal:5433/remi"
    pooled = load_settings(monkeypatch, DATABASE_URL=url, DATABASE_POOL_SIZE="6")
    database = pooled["DATABASES"]["default"]  # type: ignore[index]
    assert database["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 6, "timeout": 20}
    assert database["CONN_MAX_AGE"] == 0
    unpooled = load_settings(monkeypatch, DATABASE_URL=url, DATABASE_POOL_SIZE="0")
    assert "pool" not in unpooled["DATABASES"]["default"].get("OPTIONS", {})  # type: ignore[index]
    sqlite = load_settings(monkeypatch, DATABASE_URL="sqlite:////tmp/x.db", DATABASE_POOL_SIZE="6")
    assert "pool" not in sqlite["DATABASES"]["default"]["OPTIONS"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DEBUG": "perhaps"}, "DEBUG"),
        ({"DEBUG": "false", "ALLOWED_HOSTS": "remi.example.org"}, "SECRET_KEY"),
        ({"DEBUG": "false", "SECRET_KEY": "k" * 60}, "ALLOWED_HOSTS"),
        ({"DATABASE_URL": "mysql://root@localhost/remi"}, "DATABASE_URL"),
        ({"DATABASE_URL": "nonsense"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://127.0.0.1:6379"}, "REDIS_URL"),
        ({"REDIS_URL": "redis://127.0.0.1:6379/14"}, "REDIS_URL"),
        ({"REDIS_URL": "unix://relative.sock"}, "REDIS_URL"),
        ({"EMAIL_PORT": "smtp"}, "EMAIL_PORT"),
        ({"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "EMAIL_USE_TLS"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"MAX_OPEN_TABLES_PER_USER": "0"}, "MAX_OPEN_TABLES_PER_USER"),
        ({"MAX_OPEN_TABLES_PER_USER": "many"}, "MAX_OPEN_TABLES_PER_USER"),
        ({"TABLE_CREATIONS_PER_MINUTE": "-3"}, "TABLE_CREATIONS_PER_MINUTE"),
        ({"LOGIN_FAILURES_PER_ACCOUNT": "0"}, "LOGIN_FAILURES_PER_ACCOUNT"),
        ({"SINGLE_ADDRESS_WARNING_PERCENT": "120"}, "SINGLE_ADDRESS_WARNING_PERCENT"),
        ({"LOGIN_LOCK_SECONDS": "600", "LOGIN_LOCK_MAX_SECONDS": "60"}, "LOGIN_LOCK_MAX_SECONDS"),
        (
            {"DATABASE_URL": "postgres://remi@db.internal/remi", "DATABASE_POOL_SIZE": "some"},
            "DATABASE_POOL_SIZE",
        ),
        (
            {
                "DATABASE_URL": "postgres://remi@db.internal/remi",
                "DATABASE_POOL_SIZE": "4",
                "DATABASE_CONN_MAX_AGE": "60",
            },
            "DATABASE_POOL_SIZE and DATABASE_CONN_MAX_AGE",
        ),
    ],
)
def test_bad_environment_fails_at_start_up_naming_the_variable(monkeypatch, env, named):
    with pytest.raises(ImproperlyConfigured, match=named):
        load_settings(monkeypatch, **env)


def test_manage_py_reports_a_bad_variable_before_doing_anything():
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=subprocess_env(REDIS_URL="ftp://nowhere"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "ImproperlyConfigured: REDIS_URL must start with redis://" in done.stderr


def test_check_deploy_passes_with_the_documented_production_settings(tmp_path):
    env = subprocess_env(**PRODUCTION_ENV, REMI_VAR_DIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_operations_doc_lists_the_production_example_variables():
    operations = (BASE_DIR / "docs" / "operations.md").read_text()
    for name in PRODUCTION_ENV:
        assert f"{name}=" in operations, name
    assert os.path.exists(BASE_DIR / "Procfile")
