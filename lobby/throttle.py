"""How the site's login pages show django-axes' lockouts (settings: ``AXES_*``; docs/deploy.md).

django-axes counts failed logins per account and per client address, on the site's login and the
admin's alike, and refuses a locked-out login before the password is checked. What is left to the
site: which account a login is for, and a lockout page that is the login page itself, with the
form as it was sent and one clear message (answered with 429 Too Many Requests).
"""
from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

USERNAME_LENGTH = 150


def username_of(request, credentials):
    """The account a login is counted against: its name without case or surrounding spaces, so
    "Alice " and "alice" share one count (sign-up refuses names that differ only in case).

    Marked with a leading "@": django-axes keys an account's count and an address's count by the
    bare value, so failures for a user named "203.0.113.9" would otherwise lock that address out."""
    name = (credentials or {}).get("username")
    if name is None:
        name = request.POST.get("username")
    if not isinstance(name, str):
        return None
    return "@" + name.strip().lower()[:USERNAME_LENGTH]


def lockout_message():
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return ngettext(
        "Too many failed logins for this account or from your address. Wait %(minutes)d minute and try again.",
        "Too many failed logins for this account or from your address. Wait %(minutes)d minutes and try again.",
        minutes,
    ) % {"minutes": minutes}


class LockedOut:
    """A login form that refuses whatever it is sent with the lockout message, without checking
    the password (that would count as one more failure)."""

    def clean(self):
        raise forms.ValidationError(lockout_message(), code="locked_out")


class LockedOutForm(LockedOut, AuthenticationForm):
    pass


class LockedOutAdminForm(LockedOut, AdminAuthenticationForm):
    pass


def locked_out(request, *_response_and_credentials):
    """``AXES_LOCKOUT_CALLABLE``: the login page the request came from, the form refused.

    Ignores what django-axes passes after the request: its async middleware passes other
    arguments than its sync one, and neither is needed to draw the page again."""
    if request.path == reverse("admin:login"):
        # What AdminSite.login gives its template.
        context = {
            **admin.site.each_context(request),
            "title": _("Log in"),
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
        }
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = reverse("admin:index")
        view = auth_views.LoginView.as_view(
            authentication_form=LockedOutAdminForm, template_name="admin/login.html", extra_context=context
        )
    else:
        view = auth_views.LoginView.as_view(authentication_form=LockedOutForm)
    response = view(request)
    response.status_code = 429
    # Rendered here: the response leaves through the middleware, past the point Django renders.
    return response.render()
