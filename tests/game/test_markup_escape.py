"""The drawn parts' escaping (``game.games.markup.esc``) is Django's ``conditional_escape`` for every
kind of value a part escapes, with a shortcut for plain strings."""
from django.utils.functional import lazy
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from game.games.markup import esc


def test_esc_escapes_every_kind_of_value_as_conditional_escape_does():
    lazy_text = lazy(lambda: '<i>"lazy" & \'co\'</i>', str)()
    values = ['<b>"Tom\'s" & co</b>', "plain", "", "主机 <>", mark_safe("<em>safe</em>"), SafeString("&amp;"), lazy_text,
              42, None, 3.5]
    for value in values:
        escaped = esc(value)
        assert escaped == conditional_escape(value)
        assert isinstance(escaped, SafeString)
