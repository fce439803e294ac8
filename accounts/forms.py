from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.conf import settings
from django.core import validators
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.time_zones import offered_zones, validate_time_zone
from remi_site.form_fields import ascii_formfield, choice_field


class ZoneInput(forms.TextInput):
    """A text box with the zones as suggestions (a datalist: the browser's own search as the
    player types, on a phone too)."""

    LIST_ID = "time-zone-list"

    def __init__(self) -> None:
        super().__init__(attrs={"list": self.LIST_ID, "autocomplete": "off", "spellcheck": "false"})

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        box = super().render(name, value, attrs, renderer)
        options = format_html_join(
            "", '<option value="{}"></option>', ((z,) for z in offered_zones())
        )
        return format_html('{}<datalist id="{}">{}</datalist>', box, self.LIST_ID, options)


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
        # A box that suggests zones as the player types, common ones first; only the zone
        # database's names are taken.  A form that leaves it out keeps the zone they had.
        self.fields["time_zone"] = forms.CharField(
            label=_("Time zone"),
            widget=ZoneInput(),
            max_length=64,
            required=False,
            validators=[validate_time_zone],
            help_text=User._meta.get_field("time_zone").help_text,
        )
        # An empty choice means "follow the browser", which a row of dashes does not say.
        choice_field(self, "preferred_language").choices = [
            ("", _("Same as my browser")),
            *settings.LANGUAGES,
        ]
        colours = choice_field(self, "card_colours")
        # django-stubs types the choices a field gives back as any it may be given; Django
        # gives them back as a list.
        colours.widget = forms.RadioSelect(choices=colours.choices)  # type: ignore[arg-type]
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
