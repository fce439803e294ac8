from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.forms import ProfileForm
from accounts.models import User


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = cast(User, request.user)  # login_required guarantees a real user
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=user)
        if form.is_valid():
            form.save()
            messages.success(request, _("Your profile was saved."))
            # Redirect after POST so a reload does not resubmit the form.
            return redirect("accounts:profile")
    else:
        form = ProfileForm(instance=user)
    return render(request, "accounts/profile.html", {"form": form, "profile_user": user})
