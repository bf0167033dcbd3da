"""``manage.py run_bots``: make the moves and forfeits that fell due while no server was watching.

Server processes do this themselves once they serve a socket (``game.programs.runner``); run this after a
restart, from cron, or as a small always-on process next to the servers (the default loop).
"""
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from game.programs import runner


class Command(BaseCommand):
    help = "Play built-in bots' overdue moves and forfeit programs whose move clock ran out."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="sweep once and exit")
        parser.add_argument(
            "--interval", type=float, default=runner.DEFAULT_SWEEP_SECONDS, help="seconds between sweeps"
        )

    def handle(self, *args, once=False, interval=runner.DEFAULT_SWEEP_SECONDS, **options):
        while True:
            # A long-lived loop: drop a connection the database closed meanwhile, as requests do.
            close_old_connections()
            settled = runner.sweep()
            if settled:
                self.stdout.write(f"settled matches: {', '.join(map(str, settled))}")
            if once:
                return
            time.sleep(max(interval, 0.1))
