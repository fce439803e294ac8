"""Typed readers for settings that come from the environment.

Every reader raises ``ImproperlyConfigured`` with the variable's name in the message, so a
typo in a deployment fails at start-up with a sentence that says what to fix, instead of a
confusing error deep inside a request later.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    source = os.environ if environ is None else environ
    value = source.get(name)
    return None if value is None else value.strip()


def env_str(
    name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None
) -> str:
    value = _raw(name, environ)
    if value:
        return value
    if default is None:
        raise ImproperlyConfigured(f"{name} must be set (it has no default in this configuration).")
    return default


def env_optional(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """The value, or None when the variable is unset or blank."""
    value = _raw(name, environ)
    return value or None


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be a boolean (one of 1/0, true/false, yes/no, on/off), not {value!r}."
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, environ)
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {number}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, not {number}.")
    return number


def env_list(
    name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blank items are dropped so a trailing comma is harmless."""
    value = _raw(name, environ)
    if not value:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_path(name: str, default: Path, *, environ: Mapping[str, str] | None = None) -> Path:
    value = _raw(name, environ)
    if not value:
        return default
    path = Path(value).expanduser()
    if not path.is_absolute():
        raise ImproperlyConfigured(f"{name} must be an absolute path, not {value!r}.")
    return path
