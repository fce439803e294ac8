"""Django's ``TextChoices``, typed for mypy.

Django ships no type information here (django-stubs is not installed), so a class deriving
from ``models.TextChoices`` derives from ``Any``, and mypy takes a member such as
``TURN = "turn", _("Your turn")`` for the tuple it is written as, not the ``str`` enum member
Django's metaclass makes of it: ``Kind.TURN`` could not be passed where a ``str`` is wanted.
The site's choices derive from this ``TextChoices`` instead: at run time it is Django's own,
unchanged; to mypy, a ``str`` enum with what Django adds (each member's ``label``, the class's
``choices``, ``values``, ``labels`` and ``names``).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:

    class _ChoicesType(enum.EnumMeta):
        @property
        def choices(cls) -> list[tuple[str, str]]: ...
        @property
        def values(cls) -> list[str]: ...
        @property
        def labels(cls) -> list[str]: ...
        @property
        def names(cls) -> list[str]: ...

    class TextChoices(enum.StrEnum, metaclass=_ChoicesType):
        @property
        def value(self) -> str: ...
        @property
        def label(self) -> str: ...

else:
    from django.db.models import TextChoices

__all__ = ["TextChoices"]
