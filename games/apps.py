from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings
        from django.core.signals import setting_changed

        from accounts.vacation import vacation_ended, vacation_started
        from games import plugins, tasks
        from games.clocks import seat_clocks, work_queue

        # The games on offer: one plug-in per line of the settings (games/plugins.py).
        plugins.load(settings.REMI_GAMES)
        setting_changed.connect(plugins.reload_on_change, dispatch_uid="games-plugins")

        # Bots' turns and timeouts go to the Celery tasks, which the move path never imports.
        work_queue.connect(bot_turn=tasks.schedule_bot_move, timeouts=tasks.queue_timeouts)

        # A player's vacation stops their correspondence clocks (games/clocks/seat_clocks.py).
        vacation_started.connect(seat_clocks.pause_for_vacation, dispatch_uid="clocks-pause")
        vacation_ended.connect(seat_clocks.resume_after_vacation, dispatch_uid="clocks-resume")
