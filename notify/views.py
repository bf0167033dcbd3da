"""A person's notification settings, the links in notices (verify, unsubscribe), and the browser's
push subscription."""
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from lobby.views import login_url

from . import links, services
from .forms import PreferencesForm, PushSubscriptionForm


@require_http_methods(["GET", "HEAD", "POST"])
def preferences(request):
    if not request.user.is_authenticated:
        return redirect(login_url(request.path))
    chosen = services.preferences_of(request.user)
    if request.method == "POST":
        form = PreferencesForm(request.POST)
        if form.is_valid():
            services.save(request.user, **form.cleaned_data)
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notify:preferences")
        messages.error(request, _("Enter a valid e-mail address."))
    else:
        form = PreferencesForm(initial={
            "email": request.user.email, "by_mail": chosen.by_mail, "by_push": chosen.by_push, "in_site": chosen.in_site,
        })
    verified = bool(request.user.email) and chosen.verified_email == request.user.email
    context = {"form": form, "verified": verified, "vapid_public_key": settings.VAPID_PUBLIC_KEY}
    return render(request, "notify/preferences.html", context)


@require_http_methods(["GET", "HEAD"])
def verify(request, token):
    found = links.read_verify_token(token)
    if found is None or not services.verify(*found):
        messages.error(request, _("This link is not valid any more: ask for a new one in your notification settings."))
    else:
        messages.success(request, _("Your e-mail address is confirmed."))
    return redirect("lobby")


# One click in a mail program posts here with no session or CSRF token (RFC 8058): the signed link
# itself is the proof.
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request, token):
    user_id = links.read_unsubscribe_token(token)
    if user_id is None:
        return render(request, "notify/unsubscribe.html", {"bad": True}, status=400)
    if request.method == "POST":
        services.unsubscribe(user_id)
        return render(request, "notify/unsubscribe.html", {"done": True})
    return render(request, "notify/unsubscribe.html", {"token": token})


@require_POST
def push_subscribe(request):
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    form = PushSubscriptionForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"error": _("That is not a push subscription.")}, status=400)
    services.subscribe_push(request.user, **form.cleaned_data)
    return JsonResponse({"ok": True})
