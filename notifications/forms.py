from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.models import HOURS, Preferences


class PreferencesForm(forms.ModelForm):
    """The reminder and digest choices, shown inside the profile's form."""

    digest_hour = forms.TypedChoiceField(
        label=Preferences._meta.get_field("digest_hour").verbose_name,
        choices=[("", _("No digest")), *HOURS],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=Preferences._meta.get_field("digest_hour").help_text,
    )

    class Meta:
        model = Preferences
        fields = ("reminder_email", "digest_hour")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "notify")
        super().__init__(*args, **kwargs)
