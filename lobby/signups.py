"""How many accounts one client address may make (``SIGNUP_RATE``: accounts per window of seconds;
docs/deploy.md "Limits").

Counted in the cache, as login lockouts are: Redis in production, shared by every process, so the
limit holds whichever process answers, and the counts expire by themselves. A window starts with the
address's first new account and lasts its seconds. The address is the one the site trusts
(aquawar_site/security.py), never what the client writes into X-Forwarded-For.
"""
from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game.windows import admit as window_admit
from notify.services import start_verification

CODE = "too_many_signups"


def _key(address):
    return f"signups:{address}"


def admit(address):
    """Count one more account for ``address``: False, and nothing counted, if its window is full."""
    return window_admit(_key(address), settings.SIGNUP_RATE)


def refusal():
    limit, seconds = settings.SIGNUP_RATE
    minutes = max(1, round(seconds / 60))
    return ngettext(
        "Too many new accounts from your address (at most %(count)d in %(minutes)d minute). Try again later.",
        "Too many new accounts from your address (at most %(count)d in %(minutes)d minutes). Try again later.",
        minutes,
    ) % {"count": limit, "minutes": minutes}


class SignupForm(UserCreationForm):
    """Django's sign-up form, counted against the client's ``address`` once all else is valid (a
    mistyped password costs no place), and refused with one clear message when the address has made
    its share of accounts for now."""

    # Optional: only for notices of correspondence matches, sent once the address is confirmed
    # (notify/); live play needs none.
    email = forms.EmailField(label=_("E-mail (optional: to be told when it is your move)"), required=False)

    def __init__(self, data=None, *, address):
        super().__init__(data)
        self.address = address

    def save(self, commit=True):
        user = super().save(commit)
        if commit and self.cleaned_data.get("email"):
            start_verification(user, self.cleaned_data["email"])
        return user

    def full_clean(self):
        super().full_clean()
        if self.is_bound and not self._errors and not admit(self.address):
            self.add_error(None, forms.ValidationError(refusal(), code=CODE))

    @property
    def refused(self):
        return self.has_error(NON_FIELD_ERRORS, CODE)
