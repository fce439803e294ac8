"""Rule options as plain data: what every engine's ``Rules.to_dict`` gives."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

# By class, filled on first use.  (Not functools.cache: mypy refuses a class object as its
# Hashable argument.)
_OPTION_NAMES: dict[type, tuple[str, ...]] = {}


def option_names(kind: type) -> tuple[str, ...]:
    """The option fields of a rules dataclass, in order."""
    names = _OPTION_NAMES.get(kind)
    if names is None:
        names = _OPTION_NAMES[kind] = tuple(f.name for f in fields(kind))
    return names


def option_values(rules: Any) -> dict[str, Any]:
    """The options of a rules dataclass whose fields are all plain values, by name.

    Views ask for this after every action, for every viewer: no deep copy (``asdict``) and
    the field names read once per class."""
    return {name: getattr(rules, name) for name in option_names(type(rules))}
