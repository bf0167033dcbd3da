"""Pages for playing with machines: a match against the computer, and API tokens for programs."""
from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game import apitokens
from game.botseats import start_vs_computer
from game.services import ServiceError

from .forms import VsComputerForm
from .views import match_url, member_post


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Token name"), max_length=64, strip=True)


def profile_url(user):
    return reverse("profile", args=[user.username])


@member_post
def vs_computer(request):
    form = VsComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["move_seconds"][0] if "move_seconds" in form.errors else _("Choose a level."))
        return redirect("lobby")
    try:
        match = start_vs_computer(
            request.user, form.cleaned_data["level"], move_seconds=form.cleaned_data["move_seconds"]
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect(match_url(match))


@member_post
def token_new(request):
    form = TokenForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the token a name (up to 64 characters)."))
        return redirect(profile_url(request.user))
    try:
        row, token = apitokens.create(request.user, form.cleaned_data["name"])
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(profile_url(request.user))
    # The token is in this one response and nowhere else: not in a redirect's flash message (the
    # cookie message store would keep it in the browser), and never in a cache.
    response = render(request, "lobby/token_created.html", {"row": row, "token": token})
    response["Cache-Control"] = "no-store"
    return response


@member_post
def token_revoke(request, token_id):
    if apitokens.revoke(request.user, token_id):
        messages.success(request, _("Token revoked: programs using it can no longer connect."))
    else:
        messages.error(request, _("There is no such token."))
    return redirect(profile_url(request.user))
