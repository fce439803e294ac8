"""Every number a form of ours takes is read in ASCII digits (``remi_site.form_fields``).

Django's number fields read any script's digits (``int("٢") == 2``), so a move posted with
``version=٢`` was played.  These checks find the forms themselves, so a new form or field
cannot slip back to Django's own."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django import forms
from django.conf import settings
from django.contrib import admin

from remi_site.form_fields import (
    DecimalNumberField,
    WholeNumberChoiceField,
    WholeNumberField,
    WholeNumbersChoiceField,
)

APPS = ("accounts", "chat", "games", "notifications", "remi_site", "tournaments")
BASE = Path(settings.BASE_DIR)
# Django's fields that end in int() or float(), and the casts a TypedChoiceField might use.
DJANGO_NUMBER_FIELDS = {"IntegerField", "FloatField", "DecimalField"}
CASTS = {"int", "float"}


def sources() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((BASE / app).rglob("*.py")):
            if "migrations" not in path.parts and path != BASE / "remi_site/form_fields.py":
                yield path


def faults_in(path: Path) -> list[str]:
    faults = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if (
            isinstance(function, ast.Attribute)
            and function.attr in DJANGO_NUMBER_FIELDS
            and isinstance(function.value, ast.Name)
            and function.value.id == "forms"
        ):
            faults.append(f"{path.relative_to(BASE)}:{node.lineno}: forms.{function.attr}")
        for keyword in node.keywords:
            if (
                keyword.arg == "coerce"
                and isinstance(keyword.value, ast.Name)
                and keyword.value.id in CASTS
            ):
                faults.append(f"{path.relative_to(BASE)}:{node.lineno}: coerce={keyword.value.id}")
        if isinstance(function, ast.Attribute) and function.attr in ("isdigit", "isnumeric"):
            faults.append(f"{path.relative_to(BASE)}:{node.lineno}: .{function.attr}()")
    return faults


def test_no_form_of_ours_reads_numbers_with_djangos_own_fields():
    faults = [fault for path in sources() for fault in faults_in(path)]
    assert faults == []


def test_the_source_check_finds_what_it_looks_for(tmp_path):
    sample = BASE / "remi_site" / "_sample_for_test.py"
    sample.write_text(
        "from django import forms\n"
        "a = forms.IntegerField(min_value=0)\n"
        "b = forms.TypedChoiceField(choices=[], coerce=int)\n"
        "c = '2'.isdigit()\n"
    )
    try:
        assert [fault.split(": ")[1] for fault in faults_in(sample)] == [
            "forms.IntegerField",
            "coerce=int",
            ".isdigit()",
        ]
    finally:
        sample.unlink()


def model_forms() -> list[type[forms.BaseModelForm]]:
    """Every model form defined in our apps (each app's modules imported first)."""
    for app in APPS:
        package = importlib.import_module(app)
        for module in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" not in module.name and ".management" not in module.name:
                importlib.import_module(module.name)
    found, stack = [], [forms.ModelForm]
    while stack:
        for subclass in stack.pop().__subclasses__():
            stack.append(subclass)
            if subclass.__module__.split(".")[0] in APPS:
                found.append(subclass)
    return found


def number_field_faults(form_class: type[forms.BaseForm]) -> list[str]:
    faults = []
    for name, field in form_class.base_fields.items():
        if isinstance(field, forms.ModelMultipleChoiceField):
            ours = isinstance(field, WholeNumbersChoiceField)
        elif isinstance(field, forms.ModelChoiceField):
            ours = isinstance(field, WholeNumberChoiceField)
        elif isinstance(field, forms.IntegerField):
            ours = isinstance(field, WholeNumberField)
        elif isinstance(field, (forms.FloatField, forms.DecimalField)):
            ours = isinstance(field, DecimalNumberField)
        else:
            ours = True
        if not ours:
            faults.append(f"{form_class.__module__}.{form_class.__name__}.{name}")
    return faults


@pytest.mark.django_db
def test_every_model_form_reads_its_numbers_in_ascii_digits():
    found = model_forms()
    assert {f.__name__ for f in found} >= {"ProfileForm", "TournamentForm", "PreferencesForm"}
    assert [fault for form_class in found for fault in number_field_faults(form_class)] == []


@pytest.mark.django_db
def test_every_admin_form_reads_its_numbers_in_ascii_digits(rf, admin_user):
    request = rf.get("/admin/")
    request.user = admin_user
    faults, forms_seen = [], 0
    for model_admin in admin.site._registry.values():
        forms_seen += 1
        faults += number_field_faults(model_admin.get_form(request))
        for inline in model_admin.get_inline_instances(request):
            forms_seen += 1
            faults += number_field_faults(inline.get_formset(request).form)
    assert forms_seen >= 15
    assert faults == []


@pytest.mark.django_db
def test_an_organisers_number_in_other_digits_is_refused_in_the_admin(client, admin_user):
    client.force_login(admin_user)
    response = client.post(
        "/admin/tournaments/tournament/add/",
        {"name": "Cup", "seat_count": "\N{ARABIC-INDIC DIGIT FOUR}", "min_players": "2"},
    )
    assert response.status_code == 200  # the form again, with its errors
    assert "Enter a whole number." in response.content.decode()
