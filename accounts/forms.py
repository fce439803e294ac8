from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.conf import settings
from django.core import validators
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.time_zones import zone_names
from remi_site.form_fields import ascii_formfield


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        formfield_callback = ascii_formfield
        fields = (
            "display_name",
            "preferred_language",
            "email_on_turn",
            "turn_sound",
            "turn_notification",
            "card_colours",
            "time_zone",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A list of the zone database's names (no free text to mistype); a form that leaves
        # it out keeps the zone the player had.
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"),
            choices=[(name, name.replace("_", " ")) for name in zone_names()],
            required=False,
            help_text=User._meta.get_field("time_zone").help_text,
        )
        # An empty choice means "follow the browser", which a row of dashes does not say.
        self.fields["preferred_language"].choices = [
            ("", _("Same as my browser")),
            *settings.LANGUAGES,
        ]
        colours = self.fields["card_colours"]
        colours.widget = forms.RadioSelect(choices=colours.choices)
        colours.required = False

    # A form that leaves a choice out (an older page, a script) keeps what the player had.
    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or self.instance.time_zone

    def clean_card_colours(self) -> str:
        return self.cleaned_data.get("card_colours") or self.instance.card_colours


# The longest email address; usernames are shorter still (150).
LOGIN_MAX_LENGTH = 254


class LoginForm(AllauthLoginForm):
    """allauth's login form, with a label that says both username and email work."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = _("Username or email")
        # allauth sets no limit, and the name goes into a case-insensitive LIKE: SQLite refuses
        # a pattern over 50,000 bytes with an error (a 500), and no account has such a name.
        login.max_length = LOGIN_MAX_LENGTH
        login.validators.append(validators.MaxLengthValidator(LOGIN_MAX_LENGTH))
        login.widget.attrs["maxlength"] = str(LOGIN_MAX_LENGTH)
