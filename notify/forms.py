from django import forms
from django.utils.translation import gettext_lazy as _


class PreferencesForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address"), required=False)
    by_mail = forms.BooleanField(label=_("By e-mail (to a confirmed address)"), required=False)
    by_push = forms.BooleanField(label=_("By browser notifications (where allowed)"), required=False)
    in_site = forms.BooleanField(label=_("On this site"), required=False)


class PushSubscriptionForm(forms.Form):
    """A browser's subscription (``PushSubscription.toJSON()``), posted by static/notify/push.js."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=200)
    auth = forms.CharField(max_length=100)

    def clean_endpoint(self):
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint.startswith("https://"):
            raise forms.ValidationError(_("A push endpoint is an https address."))
        return endpoint
