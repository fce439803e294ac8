from __future__ import annotations

from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "preferred_language", "email_on_turn")
