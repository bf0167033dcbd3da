from django.core.management.base import BaseCommand

from game.sweep import sweep


class Command(BaseCommand):
    help = (
        "Cancel live matches whose players both left before anyone picked (ABANDONED_MATCH_MINUTES) "
        "and open matches nobody joined (OPEN_MATCH_MINUTES)."
    )

    def handle(self, *args, **options):
        cancelled = sweep()
        self.stdout.write(f"Cancelled {len(cancelled)} abandoned or expired match(es){': ' if cancelled else ''}"
                          f"{', '.join(map(str, cancelled))}")
