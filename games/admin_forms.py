"""The admin's "Add table": the lobby's new-table form, with the owner chosen by the admin.

Tables are made by :func:`games.tables.lifecycle.create_table` whoever makes them, so the admin
runs the same validation (the lobby's ``TableForm``, then the service's own checks) and the
same creation (seats, bots, rules from the preset) as the lobby, never a bare ``Table`` row."""

from __future__ import annotations

from typing import Any

from django import forms

from games.models import Table
from games.tables import lifecycle
from games.tables.forms import TableForm
from remi_site.form_fields import ascii_formfield


class NewTableAdminForm(forms.ModelForm):
    class Meta:
        model = Table
        formfield_callback = ascii_formfield
        fields = ("owner",)

    def __init__(self, data: Any = None, files: Any = None, **kwargs: Any) -> None:
        kwargs.pop("instance", None)  # a new table is made by the service, not from a row
        super().__init__(data, files, **kwargs)
        self.fields["owner"].help_text = "Sits in the first seat and may start the table."
        # The lobby form's fields follow its chosen game: a form posted for another game
        # comes back with that game's presets and options.
        self.table_form = TableForm(data, initial=kwargs.get("initial") or {})
        self.fields.update(self.table_form.fields)
        self.fields[
            "game_type"
        ].help_text = "After choosing another game, save once: the form then offers its rules."

    def clean(self) -> dict[str, Any]:
        # Django's clean returns cleaned_data; its stub allows None for overrides that return
        # nothing, so the dict is read from the form.
        super().clean()
        data = self.cleaned_data
        if not self.table_form.is_valid():
            for field, errors in self.table_form.errors.items():
                # The fields are shared, so their own errors are here already; what is left
                # are the lobby form's checks across fields.
                if field not in self.errors:
                    self.add_error(None if field == "__all__" else field, errors)
            return data
        owner = data.get("owner")
        if owner is not None:
            try:
                lifecycle.check_new_table(owner, **self.table_form.create_kwargs())
            except lifecycle.TableError as refusal:
                self.add_error(None, str(refusal))
        return data

    def create(self) -> Table:
        return lifecycle.create_table(self.cleaned_data["owner"], **self.table_form.create_kwargs())

    def field_names(self) -> list[str]:
        return list(self.fields)
