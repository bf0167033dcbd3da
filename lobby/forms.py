from django import forms
from django.utils.translation import gettext_lazy as _


class NewMatchForm(forms.Form):
    visibility = forms.ChoiceField(
        label=_("Who may join"),
        choices=[
            ("open", _("Anyone: list it in the lobby")),
            ("private", _("Only people I send the invite link to")),
        ],
        initial="open",
        widget=forms.RadioSelect,
    )

    @property
    def private(self):
        return self.cleaned_data["visibility"] == "private"

