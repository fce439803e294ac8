"""The kinds of notice the site sends; each can be turned off on its own."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from remi_site.choices import TextChoices


class Kind(TextChoices):
    TURN = "turn", _("Your turn")
    REMINDER = "reminder", _("Time running out")
    DIGEST = "digest", _("Daily digest")
    # Shown on the player's pages while the game is played; emailed to those who want
    # "your turn" emails (it is their table's first turn), under that kind's unsubscribe.
    ROUND = "round", _("A tournament round starts")
