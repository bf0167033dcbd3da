"""The time controls a match may have, as a value: checked, named and labelled in one place.

A control is two numbers, stored side by side on a match, a Play now seek and a tournament:

- ``bank`` 0: a clock per decision (or per turn, ``Game.clock_counts``) of ``seconds`` each; 0
  seconds is no clock at all. A period of a day or more is a correspondence control.
- ``bank`` > 0: each player has a bank of ``bank`` seconds for the whole match, and ``seconds``
  more after each decision (turn) of theirs: lichess's "3+2", here "3 min + 5 s per decision".

Whichever the control, a pick phase (``Game.picking``: Aquawar's team pick, 神迹之战's deck) has its
own allowance (``pick_allowance``), never taken from the bank.
"""
from typing import NamedTuple

from django.utils.translation import gettext, ngettext

from .errors import ServiceError

DAY = 24 * 60 * 60
# Correspondence: days per decision (per turn), as Board Game Arena's turn-based mode offers them.
CORRESPONDENCE_DAYS = (1, 2, 3, 7)
CORRESPONDENCE = tuple(days * DAY for days in CORRESPONDENCE_DAYS)


class TimeControl(NamedTuple):
    seconds: int = 0
    bank: int = 0

    @property
    def timed(self):
        return bool(self.seconds or self.bank)

    @property
    def correspondence(self):
        return not self.bank and self.seconds >= DAY

    @property
    def key(self):
        """How forms and pools name it: "30", "180+5", "86400"."""
        return f"{self.bank}+{self.seconds}" if self.bank else str(self.seconds)

    @classmethod
    def parse(cls, text):
        """The control a form's value names ("30", "180+5"); ValueError for anything else."""
        bank, plus, seconds = str(text).strip().partition("+")
        if not plus:
            bank, seconds = "0", bank
        if not (bank.isascii() and bank.isdigit() and seconds.isascii() and seconds.isdigit()):
            raise ValueError(text)
        control = cls(int(seconds), int(bank))
        if plus and not control.bank:
            raise ValueError(text)
        return control


def of(row):
    """The control of a match, seek or tournament row (``move_seconds``, ``bank_seconds``)."""
    return TimeControl(row.move_seconds, row.bank_seconds)


def of_clock(clock):
    """The control a match frame's ``clock`` (game/live/frames.py) carries."""
    return TimeControl(clock["move_seconds"], clock["bank_seconds"])


def duration(seconds):
    """"2 days", "3 min", "90 s": a period as people say it."""
    if seconds and seconds % DAY == 0:
        days = seconds // DAY
        return ngettext("%(count)s day", "%(count)s days", days) % {"count": days}
    if seconds and seconds % 60 == 0:
        return gettext("%(minutes)s min") % {"minutes": seconds // 60}
    return gettext("%(seconds)s s") % {"seconds": seconds}


def label(control, unit):
    """What people read for ``control`` of a game whose clock counts ``unit`` ("decision" or "turn")."""
    if not control.timed:
        return gettext("No clock")
    if control.bank:
        parts = {"bank": duration(control.bank), "increment": duration(control.seconds)}
        if unit == "turn":
            return gettext("%(bank)s + %(increment)s per turn") % parts
        return gettext("%(bank)s + %(increment)s per decision") % parts
    # A live period in seconds, as the controls have always been named ("120 s per decision").
    period = duration(control.seconds) if control.correspondence else gettext("%(seconds)s s") % {
        "seconds": control.seconds
    }
    if unit == "turn":
        return gettext("%(period)s per turn") % {"period": period}
    return gettext("%(period)s per decision") % {"period": period}


def presets(game):
    """Every control the lobby offers for ``game``, timed ones only: per move, banks, correspondence."""
    return (
        [TimeControl(seconds) for seconds in game.time_controls if seconds]
        + [TimeControl(increment, bank) for bank, increment in game.bank_presets]
        + [TimeControl(seconds) for seconds in CORRESPONDENCE]
    )


def limits_text(game):
    low, high = game.bank_limits
    increment_high = game.increment_limits[1]
    unit = gettext("per turn") if game.clock_counts == "turn" else gettext("per decision")
    return gettext(
        "A time bank is %(low)s to %(high)s, plus 0 to %(increment)s s %(unit)s."
    ) % {"low": duration(low), "high": duration(high), "increment": increment_high, "unit": unit}


def check(game, seconds, bank=0):
    """``TimeControl(seconds, bank)`` if ``game`` offers it, else a ServiceError saying what it offers:
    one of its per-move controls or correspondence, or any bank and increment within its limits."""
    values = (seconds, bank)
    if any(isinstance(value, bool) or not isinstance(value, int) for value in values):
        raise ServiceError("bad_time_control", str(game.bad_time_control))
    control = TimeControl(seconds, bank)
    if not bank:
        if seconds in game.time_controls or seconds in CORRESPONDENCE:
            return control
        raise ServiceError("bad_time_control", str(game.bad_time_control))
    low, high = game.bank_limits
    increment_low, increment_high = game.increment_limits
    if not (low <= bank <= high and increment_low <= seconds <= increment_high):
        raise ServiceError("bad_time_control", limits_text(game))
    return control


def pick_allowance(game, control):
    """A pick's time: the game's allowance, or the control's period if that is longer (a
    correspondence match picks over days). None: no clock."""
    if not control.timed:
        return None
    return max(game.pick_seconds, 0 if control.bank else control.seconds)
