"""Login throttling: after ``LOGIN_FAILURE_LIMIT`` failed logins for one username from one address
within the window, that pair may not try again until the window has passed.

Counts live in Django's cache: per process in the embedded setup, shared (Redis) in production,
so the limit holds however many processes answer. Keyed by username *and* address, so a stranger
guessing someone's password cannot lock that person out from their own address.
"""
import hashlib

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.utils.translation import ngettext


def _key(username, address):
    digest = hashlib.sha256(f"{username.strip().lower()}\n{address}".encode()).hexdigest()
    return f"login-failures:{digest}"


def blocked(username, address):
    limit, _window = settings.LOGIN_FAILURE_LIMIT
    return cache.get(_key(username, address), 0) >= limit


def failed(username, address):
    key = _key(username, address)
    _limit, window = settings.LOGIN_FAILURE_LIMIT
    # add() starts the window on the first failure; later failures count within it, not extend it.
    if not cache.add(key, 1, window):
        try:
            cache.incr(key)
        except ValueError:  # expired between add() and incr()
            cache.add(key, 1, window)


def succeeded(username, address):
    cache.delete(_key(username, address))


class ThrottledAuthenticationForm(AuthenticationForm):
    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = self.request.META.get("REMOTE_ADDR", "") if self.request else ""
        if username and blocked(username, address):
            _limit, window = settings.LOGIN_FAILURE_LIMIT
            minutes = max(1, round(window / 60))
            message = ngettext(
                "Too many failed logins for this account from your address. Wait %(minutes)d minute and try again.",
                "Too many failed logins for this account from your address. Wait %(minutes)d minutes and try again.",
                minutes,
            )
            raise forms.ValidationError(message, code="throttled", params={"minutes": minutes})
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            if username:
                failed(username, address)
            raise
        succeeded(username, address)
        return cleaned
