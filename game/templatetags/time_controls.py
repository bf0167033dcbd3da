"""``{% time_control seconds bank unit %}``: a time control as people read it (game/time_controls.py)."""
from django import template

from game import time_controls

register = template.Library()


@register.simple_tag
def time_control(seconds, bank, unit):
    return time_controls.label(time_controls.TimeControl(int(seconds or 0), int(bank or 0)), unit)
