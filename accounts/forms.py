from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "preferred_language", "email_on_turn")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # An empty choice means "follow the browser", which a row of dashes does not say.
        self.fields["preferred_language"].choices = [
            ("", _("Same as my browser")),
            *settings.LANGUAGES,
        ]


class LoginForm(AllauthLoginForm):
    """allauth's login form, with a label that says both username and email work."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")
