"""The quick phrases: one tap, and every reader sees them in their own language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

PHRASES = {
    "hello": _("Hello!"),
    "good-luck": _("Good luck!"),
    "well-played": _("Well played"),
    "good-game": _("Good game"),
    "thanks": _("Thanks"),
    "hurry": _("Hurry up, please"),
    "sorry": _("Sorry, I have to think"),
    "oops": _("Oops"),
}
