"""The site's admin: a changelist honours only what its admin declares (issue 27).

Django lets a changelist filter on any lookup of a model's own fields unless the admin says
otherwise: ``/admin/games/game/?state__icontains=<guess>`` listed a game only when the guess
was in its state, so a staff user without ``games.view_hidden_information`` read a seed one
guess at a time.  Here, for every admin of the site:

- The query string may name only the parameters of the admin's declared ``list_filter``, its
  ``date_hierarchy``'s year, month and day, and a raw-id popup's ``limit_choices_to``.  Any
  other is refused before a query runs, whatever its value, with Django's answer to a lookup
  it cannot run (a redirect to ``?e=1``) and a warning in the log naming the user.
- A filter, search field, ordering or sortable column that reaches a field its model lists in
  ``hidden_information_fields`` (``Game.state``, ``Table.series`` …), on the model itself or
  across relations (``table__series``), is dropped for a user without the permission, even
  once the game is over: a list mixes games in play with finished ones.

:class:`RemiAdminSite` mixes :class:`DeclaredLookupsOnly` into every admin registered with it,
ours and those of Django and allauth, so no admin, present or future, can leave it out; and
:class:`NumbersInAsciiDigits`, so that their forms read numbers as every form of ours does.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.contrib.admin.widgets import url_params_from_lookup_dict
from django.core.exceptions import FieldDoesNotExist
from django.db.models import F, Model
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from remi_site.form_fields import ascii_form_class

if TYPE_CHECKING:
    # What DeclaredLookupsOnly is mixed into, so that mypy knows its ``super()``; at run
    # time, a plain mixin (``guarded`` puts it before the admin's own class).
    from django.contrib.admin import ModelAdmin as _ModelAdmin
else:
    _ModelAdmin = object

HIDDEN_INFORMATION = "games.view_hidden_information"

logger = logging.getLogger(__name__)


def reaches_hidden(model: type[Model], path: str) -> bool:
    """Whether the lookup, search or ordering ``path`` from ``model`` reads a field that its
    model lists in ``hidden_information_fields``: ``state``, ``game__state__seed``,
    ``-table__series``, ``^seats__rack_order``."""
    for name in path.lstrip("-^=@").split(LOOKUP_SEP):
        if name == "pk":
            name = model._meta.pk.name
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            return False  # a lookup or a transform of the field before it
        if field.name in getattr(model, "hidden_information_fields", ()):
            return True
        # The rest are transforms of a plain column.  (A related model named by a string is
        # a class once the apps are loaded.)
        if not isinstance(field.related_model, type):
            return False
        model = field.related_model
    return False


def paths_in(entry: Any) -> Iterator[str]:
    """The field paths an ordering entry or a filter names: a string, an expression's
    ``F()``s, the field of a ``(field, FilterClass)`` pair.  A ``SimpleListFilter`` names
    none: its own code reads what it declares."""
    if isinstance(entry, str):
        yield entry
    elif isinstance(entry, list | tuple) and entry and isinstance(entry[0], str):
        yield entry[0]
    elif hasattr(entry, "flatten"):
        yield from (node.name for node in entry.flatten() if isinstance(node, F))
    elif isinstance(entry, F):
        yield entry.name


class GuardedChangeList(ChangeList):
    """A changelist that refuses every parameter its declared filters do not take, and never
    orders by a hidden field for a user without the permission."""

    model_admin: DeclaredLookupsOnly
    sortable_by: Sequence[Any] | None

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        self.request = request  # read by get_ordering_field, which Django calls without it
        super().__init__(request, *args, **kwargs)
        # A hidden column's header is no link to sort by (Django's own ``o=`` ignores
        # ``sortable_by``, hence get_ordering_field below as well).
        self.sortable_by = [
            name
            for name in (self.list_display if self.sortable_by is None else self.sortable_by)
            if not self._orders_by_hidden(name)
        ]

    def get_filters(self, request: HttpRequest) -> Any:
        admin_ = self.model_admin
        for key, values in self.get_filters_params().items():
            if not all(admin_.lookup_allowed(key, value, request) for value in values):
                self._refuse(request, key)
            if any("\x00" in value for value in values):
                # No text column holds one, and PostgreSQL refuses to compare with it (a 500).
                raise IncorrectLookupParameters(f"A NUL character in {key!r}")
        built = super().get_filters(request)
        # What the declared filters took is gone from the remaining parameters; the date
        # hierarchy's year, month and day became a range of its own.
        made = (
            {f"{self.date_hierarchy}__gte", f"{self.date_hierarchy}__lt"}
            if self.date_hierarchy
            else set()
        )
        popup = admin_.popup_lookups()
        for key in built[2]:
            if key not in made and key not in popup:
                self._refuse(request, key)
        return built

    def get_ordering_field(self, field_name: Any) -> Any:
        order_field = super().get_ordering_field(field_name)
        if order_field is not None and not all(
            self.model_admin.opens(self.request, path) for path in paths_in(order_field)
        ):
            return None
        return order_field

    def get_ordering(self, request: HttpRequest, queryset: Any) -> list[Any]:
        # The admin's ordering, the model's and the ``o=`` columns all end up here.
        return [
            entry
            for entry in super().get_ordering(request, queryset)
            if all(self.model_admin.opens(request, path) for path in paths_in(entry))
        ]

    def _orders_by_hidden(self, name: Any) -> bool:
        try:
            return super().get_ordering_field(name) is not None and (
                self.get_ordering_field(name) is None
            )
        except AttributeError:
            return False  # a column that is not sortable in the first place

    def _refuse(self, request: HttpRequest, key: str) -> None:
        logger.warning(
            "Admin lookup refused: user %s asked %s for %r, which no declared filter takes",
            request.user.pk,
            self.opts.label,
            key[:200],
        )
        raise IncorrectLookupParameters(f"Filtering by {key[:200]!r} is not allowed")


class DeclaredLookupsOnly(_ModelAdmin):
    """Mixed into every admin of the site by :class:`RemiAdminSite`; see the module."""

    def sees_hidden_information(self, request: HttpRequest) -> bool:
        return request.user.has_perm(HIDDEN_INFORMATION)

    def opens(self, request: HttpRequest, path: str) -> bool:
        """Whether ``request``'s user may filter, search or sort by ``path``."""
        return self.sees_hidden_information(request) or not reaches_hidden(self.model, path)

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return GuardedChangeList

    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        return [
            item
            for item in super().get_list_filter(request)
            if all(self.opens(request, path) for path in paths_in(item))
        ]

    def get_search_fields(self, request: HttpRequest) -> list[Any]:
        # Also what the autocomplete of a related field searches.
        return [f for f in super().get_search_fields(request) if self.opens(request, str(f))]

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        # The queryset's own ordering, which the autocomplete answers in too.
        return [
            entry
            for entry in super().get_ordering(request) or ()
            if all(self.opens(request, path) for path in paths_in(entry))
        ]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # Django's own allows any lookup on the model's fields; here only a declared filter's
        # parameter (each takes only some of those it is asked: GuardedChangeList refuses
        # the rest once they have taken theirs).
        if self.popup_lookups().get(lookup) == value:
            return True
        names, prefixes = self.declared_parameters(request)
        return lookup in names or lookup.startswith(prefixes)

    def declared_parameters(self, request: HttpRequest | None) -> tuple[set[str], tuple[str, ...]]:
        """The parameter names of the declared filters: whole names (a ``SimpleListFilter``'s,
        the date hierarchy's) and the field paths that a field filter's lookups begin with."""
        names: set[str] = set()
        prefixes: list[str] = []
        list_filter = self.get_list_filter(request) if request is not None else ()
        for item in list_filter:
            if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                # Django refuses such a filter without a parameter name.
                if item.parameter_name is not None:
                    names.add(item.parameter_name)
            else:
                prefixes.extend(f"{path}{LOOKUP_SEP}" for path in paths_in(item))
        if self.date_hierarchy:
            names.update(f"{self.date_hierarchy}__{part}" for part in ("year", "month", "day"))
        return names, tuple(prefixes)

    def popup_lookups(self) -> dict[str, str]:
        """The ``limit_choices_to`` of the raw-id popups that choose this model (Django puts
        them in the popup's query string), parameter by parameter."""
        params: dict[str, str] = {}
        for limit in self.model._meta.related_fkey_lookups:
            params.update(url_params_from_lookup_dict(limit() if callable(limit) else limit))
        return params


class NumbersInAsciiDigits:
    """Mixed into every admin of the site and its inlines: a number field or a row chosen by
    its number reads ASCII digits only (``remi_site.form_fields``), as every other form of the
    site does; Django's own took ``٢`` for 2."""

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        form_class = ascii_form_class(db_field)
        if form_class is not None:
            kwargs.setdefault("form_class", form_class)
        return super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        inlines = super().get_inline_instances(request, obj)  # type: ignore[misc]
        for inline in inlines:
            # (A ``type``: mypy does not take ``type[Any]`` for Hashable, as the cache wants.)
            inline_class: type = type(inline)
            inline.__class__ = _with_ascii_numbers(inline_class)
        return inlines


@functools.cache
def _with_ascii_numbers(inline_class: type) -> type:
    if issubclass(inline_class, NumbersInAsciiDigits):
        return inline_class
    return type(
        inline_class.__name__,
        (NumbersInAsciiDigits, inline_class),
        {"__module__": inline_class.__module__, "__doc__": inline_class.__doc__},
    )


def guarded(admin_class: type[admin.ModelAdmin]) -> type[admin.ModelAdmin]:
    if issubclass(admin_class, DeclaredLookupsOnly):
        return admin_class
    return type(
        admin_class.__name__,
        (DeclaredLookupsOnly, NumbersInAsciiDigits, admin_class),
        {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
    )


class RemiAdminSite(admin.AdminSite):
    def register(
        self,
        model_or_iterable: type[Model] | Iterable[type[Model]],
        admin_class: type[admin.ModelAdmin] | None = None,
        **options: Any,
    ) -> None:
        super().register(model_or_iterable, guarded(admin_class or admin.ModelAdmin), **options)


class RemiAdminConfig(AdminConfig):
    """``django.contrib.admin`` with :class:`RemiAdminSite` as ``admin.site``."""

    default_site = "remi_site.admin_site.RemiAdminSite"
