from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.models import HOURS, Preferences
from remi_site.form_fields import ascii_formfield, ascii_int


class PreferencesForm(forms.ModelForm):
    """The reminder and digest choices, shown inside the profile's form."""

    digest_hour = forms.TypedChoiceField(
        label=Preferences._meta.get_field("digest_hour").verbose_name,
        choices=[("", _("No digest")), *HOURS],
        coerce=ascii_int,
        empty_value=None,
        required=False,
        help_text=Preferences._meta.get_field("digest_hour").help_text,
    )

    class Meta:
        model = Preferences
        formfield_callback = ascii_formfield
        fields = ("reminder_email", "digest_hour")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "notify")
        super().__init__(*args, **kwargs)
