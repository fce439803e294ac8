from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from accounts.vacation import vacation_ended, vacation_started
        from games import clocks

        # A player's vacation stops their correspondence clocks (games/clocks.py).
        vacation_started.connect(clocks.pause_for_vacation, dispatch_uid="clocks-pause")
        vacation_ended.connect(clocks.resume_after_vacation, dispatch_uid="clocks-resume")
