"""The site's user model, custom from the first migration so fields can be added later."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.time_zones import DEFAULT_TIME_ZONE, validate_time_zone
from remi_site.choices import TextChoices

# Every player starts with this many vacation days (see accounts/vacation.py).
STARTING_VACATION_DAYS = 14


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown to other players at the table. Leave empty to use your username."),
    )
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The site's language when you are logged in."),
    )
    email_on_turn = models.BooleanField(
        _("email me when it is my turn in a slow game"),
        default=False,
    )
    # How the site tells a player it is their turn while they look at another tab
    # (static/js/turn-signal.js); the title and the tab's icon always change.
    turn_sound = models.BooleanField(
        _("play a short sound when it becomes my turn"), default=False, db_default=False
    )
    turn_notification = models.BooleanField(
        _("show a browser notification when it becomes my turn and the page is hidden"),
        default=False,
        db_default=False,
        help_text=_("Your browser asks for permission when you turn this on."),
    )

    class CardColours(TextChoices):
        FOUR = "four", _("Four colours: spades black, hearts red, diamonds blue, clubs green")
        TWO = "two", _("Two colours: spades and clubs black, hearts and diamonds red")

    # Four colours by default: no suit has to be told apart by colour alone.
    card_colours = models.CharField(
        _("playing card colours"),
        max_length=4,
        choices=CardColours.choices,
        default=CardColours.FOUR,
        db_default=CardColours.FOUR,
    )

    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=DEFAULT_TIME_ZONE,
        # Database defaults too, for every new column: rows written by code that predates
        # them (a process of the previous release during a deploy) still insert.
        db_default=DEFAULT_TIME_ZONE,
        validators=[validate_time_zone],
        help_text=_(
            "Where you live, as a zone name such as Europe/Bucharest: tables with no clock "
            "on weekends pause your clock on your own Saturday and Sunday."
        ),
    )
    # Vacation (accounts/vacation.py): a balance of whole days, credited lazily a week at a
    # time from the date last credited, so nothing has to run every week for every player.
    vacation_days = models.PositiveSmallIntegerField(
        default=STARTING_VACATION_DAYS, db_default=STARTING_VACATION_DAYS
    )
    vacation_credited_on = models.DateField(null=True, blank=True)
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    # A program plays this account through the Bot API (bot_api/): set by staff in the admin
    # or by the owner from the profile, and shown beside the name wherever it appears.
    is_bot = models.BooleanField(
        _("bot account"),
        default=False,
        db_default=False,
        help_text=_("A program plays this account through the Bot API."),
    )

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    @property
    def on_vacation(self) -> bool:
        return self.vacation_started_at is not None

    @property
    def public_name(self) -> str:
        """The name every page, log, replay and standings table shows (seats, the lobby and
        tournaments all come through here): a bot account is marked as one."""
        name = self.display_name or self.username
        if self.is_bot:
            return gettext("%(name)s [bot]") % {"name": name}
        return name

    def __str__(self) -> str:
        return self.public_name


def display_name_of(user: User) -> str:
    """allauth's ACCOUNT_USER_DISPLAY: how a user is named in its pages and emails."""
    return user.public_name
