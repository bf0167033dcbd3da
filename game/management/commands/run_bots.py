"""``manage.py run_bots``: the bot worker, or a sweep of the work that fell due while nobody watched.

With ``BOT_WORKERS = "external"`` (production, docs/deploy.md "Workers") this is where built-in bots
think and clocks are timed: run one per core, on any machine that reaches the database and Redis.
With ``BOT_WORKERS = "inline"`` the process that serves the site does that itself, and this loop only
sweeps (as it did before workers existed); ``--once`` sweeps once and exits (cron, after a restart).
"""
import os
import time

from channels.layers import get_channel_layer
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from game.programs import dispatch, runner
from game.programs.worker import BotWorker


class Command(BaseCommand):
    help = "Think for built-in bots and time the clocks (BOT_WORKERS=external), or sweep overdue work."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="sweep once and exit")
        parser.add_argument(
            "--interval", type=float, default=runner.DEFAULT_SWEEP_SECONDS,
            help="seconds between sweeps, when bots think inline",
        )
        parser.add_argument("--concurrency", type=int, default=1, help="decisions this worker makes at once")
        # Thinking is the least urgent work on a machine that also serves pages: the kernel gives the
        # servers the processor first.
        parser.add_argument("--nice", type=int, default=10, help="niceness added to this process (0: none)")

    def handle(self, *args, once=False, interval=runner.DEFAULT_SWEEP_SECONDS, concurrency=1, nice=10, **options):
        if once:
            self.sweep_once()
            return
        if concurrency < 1:
            raise CommandError("--concurrency must be at least 1.")
        if nice:
            os.nice(nice)
        if not dispatch.external():
            self.stdout.write("BOT_WORKERS is inline: the site's own process thinks for bots; sweeping only.")
            while True:
                self.sweep_once()
                time.sleep(max(interval, 0.1))
        self.stdout.write(f"Bot worker on channel {dispatch.CHANNEL!r}, {concurrency} at a time.")
        BotWorker(get_channel_layer(), concurrency).run()

    def sweep_once(self):
        # A long-lived loop: drop a connection the database closed meanwhile, as requests do.
        close_old_connections()
        settled = runner.sweep()
        if settled:
            self.stdout.write(f"settled matches: {', '.join(map(str, settled))}")
