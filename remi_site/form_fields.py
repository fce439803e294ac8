"""Form fields that read numbers in ASCII digits only, for every form of the site.

Django's number fields end in ``int()`` and ``float()``, which read any script's digits:
``version=٢`` (Arabic-Indic two) was a move at version 2.  Every number a form takes goes
through :func:`games.engine.core.numbers.parse_natural` (or the decimal reader below), so a
number is always written the one way the pages write it.  ``tests/site/test_form_numbers.py``
checks that no form of ours uses Django's own number fields.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import models

from games.engine.core.numbers import parse_natural

# A sign, at most nine whole digits and six decimals: scores, never more.
_ASCII_DECIMAL = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,6})?")
# What a browser may put around a number typed in a box.
_BLANKS = " \t\r\n"


def ascii_int(value: Any) -> int:
    """``coerce`` for a TypedChoiceField of whole numbers: ValueError unless ASCII digits
    (with a minus sign in front for a negative number)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = value.strip(_BLANKS) if isinstance(value, str) else ""
    sign = -1 if text.startswith("-") else 1
    number = parse_natural(text[1:] if sign < 0 else text)
    if number is None:
        raise ValueError(f"not a whole number in ASCII digits: {value!r}")
    return sign * number


def ascii_int_or_none(value: Any) -> int | None:
    return None if value in ("", None) else ascii_int(value)


class WholeNumberField(forms.IntegerField):
    """A whole number in ASCII digits (anything else is "Enter a whole number"); its
    ``min_value`` and ``max_value`` are checked as Django's field checks them."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        try:
            return ascii_int(value)
        except ValueError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None


class DecimalNumberField(forms.FloatField):
    """A number with an optional sign and decimals, in ASCII digits and a dot."""

    # django-stubs types FloatField as an IntegerField whose to_python returns int | None, and
    # silences the same clash in its own FloatField.to_python.
    def to_python(self, value: Any) -> float | None:  # type: ignore[override]
        if value in self.empty_values:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        text = value.strip(_BLANKS) if isinstance(value, str) else None
        if text is None or not _ASCII_DECIMAL.fullmatch(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return float(text)


def _rows_model(queryset: models.QuerySet[Any] | None) -> type[models.Model]:
    """The model a choice field's rows are of (the field's queryset is set by then)."""
    if queryset is None:
        raise ImproperlyConfigured("a model choice field needs a queryset")
    return queryset.model


def _numbered(model: type[models.Model], to_field_name: str | None) -> bool:
    """Whether rows of ``model`` are chosen by a whole number."""
    field = model._meta.get_field(to_field_name) if to_field_name else model._meta.pk
    return isinstance(field, models.IntegerField)


class WholeNumberChoiceField(forms.ModelChoiceField):
    """A row chosen by its number (a user, a table): the number in ASCII digits only, since
    the database field would read ``٢`` as 2."""

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        model = _rows_model(self.queryset)
        if _numbered(model, self.to_field_name) and not isinstance(value, model):
            try:
                ascii_int(value)
            except ValueError:
                raise ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice"
                ) from None
        return super().to_python(value)


class WholeNumbersChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value: Any) -> Any:
        model = _rows_model(self.queryset)
        numbered = _numbered(model, self.to_field_name)
        for item in value if numbered and isinstance(value, (list, tuple)) else ():
            if not isinstance(item, model):
                try:
                    ascii_int(item)
                except ValueError:
                    raise ValidationError(
                        self.error_messages["invalid_pk_value"],
                        code="invalid_pk_value",
                        params={"pk": item},
                    ) from None
        # Django's private _check_values (which clean calls) is missing from django-stubs.
        return super()._check_values(value)  # type: ignore[misc]


def ascii_form_class(db_field: models.Field) -> type[forms.Field] | None:
    """The form field that reads ``db_field``'s numbers in ASCII digits, if it holds any."""
    if isinstance(db_field, models.ManyToManyField):
        return WholeNumbersChoiceField
    if isinstance(db_field, models.ForeignKey):
        return WholeNumberChoiceField
    if db_field.choices:
        return None  # a choice is compared as the page wrote it: "٢" is no choice
    if isinstance(db_field, models.IntegerField):  # AutoField and the rest are IntegerFields
        return WholeNumberField
    if isinstance(db_field, models.FloatField):
        return DecimalNumberField
    return None


def ascii_formfield(db_field: models.Field, **kwargs: Any) -> forms.Field | None:
    """``formfield_callback`` for model forms: a model's number fields and relations read
    ASCII digits only."""
    form_class = ascii_form_class(db_field)
    if form_class is not None:
        kwargs.setdefault("form_class", form_class)
    return db_field.formfield(**kwargs)


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """``form``'s field ``name``, a choice field, whose choices can be set."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{name} is a {type(field).__name__}, not a ChoiceField")
    return field
