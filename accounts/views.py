from __future__ import annotations

from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts import vacation
from accounts.forms import ProfileForm
from accounts.models import User
from notifications.forms import PreferencesForm
from notifications.preferences import preferences_of
from tournaments.leaderboard import histories


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = cast(User, request.user)  # login_required guarantees a real user
    notify_form = PreferencesForm(
        request.POST if request.method == "POST" else None, instance=preferences_of(user)
    )
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=user)
        if form.is_valid() and notify_form.is_valid():
            form.save()
            notify_form.save()
            messages.success(request, _("Your profile was saved."))
            # Redirect after POST so a reload does not resubmit the form.
            return redirect("accounts:profile")
    else:
        form = ProfileForm(instance=user)
    context = {
        "form": form,
        "notify_form": notify_form,
        "profile_user": user,
        "vacation_days": vacation.balance(user),
        "vacation_ends_at": vacation.ends_at(user),
        "max_vacation_days": vacation.MAX_VACATION_DAYS,
        "rating_histories": histories(user),
    }
    return render(request, "accounts/profile.html", context)


@require_POST
@login_required
def toggle_vacation(request: HttpRequest) -> HttpResponse:
    """One button: start a vacation, or end the one under way."""
    user = cast(User, request.user)
    try:
        if user.on_vacation:
            user = vacation.end_vacation(user)
            messages.success(
                request,
                _("Welcome back: your clocks run again. %(days)d vacation days left.")
                % {"days": user.vacation_days},
            )
        else:
            user = vacation.start_vacation(user)
            # In the player's own time zone, as the profile shows it; the date in brackets, since
            # a format may end with a full stop of its own ("2:29 a.m.").
            ends = timezone.localtime(vacation.ends_at(user), user.zone)
            until = formats.date_format(ends, "DATETIME_FORMAT")
            messages.success(
                request,
                _(
                    "Your vacation has begun: your correspondence clocks are stopped until you "
                    "come back (at the latest %(until)s)."
                )
                % {"until": until},
            )
    except vacation.VacationError as error:
        messages.error(request, str(error))
    return redirect("accounts:profile")


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The switcher at the top of every page.

    Django's ``set_language`` checks the language, keeps it in the language cookie (which is
    all a visitor has) and sends the browser back to the page it came from. A logged-in
    player's choice is saved on the profile as well: that choice follows them to other
    browsers, and the profile outranks the cookie (accounts/middleware.py).
    """
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        user = request.user
        if user.preferred_language != language:
            user.preferred_language = language
            user.save(update_fields=["preferred_language"])
    return response
