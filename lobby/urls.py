from django.contrib.auth import views as auth_views
from django.urls import path, register_converter

from . import views, your_games
from .forms import PasswordAndTokensForm


class UsernameConverter:
    # The characters Django's username validator allows. Anything else can't name a user, and some
    # of it (NUL) can't even be sent to PostgreSQL, so it never reaches a view.
    regex = r"[\w.@+-]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


class InviteTokenConverter(UsernameConverter):
    regex = r"[A-Za-z0-9_-]+"  # secrets.token_urlsafe()


register_converter(UsernameConverter, "username")
register_converter(InviteTokenConverter, "invite_token")

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/matches/", views.lobby_matches, name="lobby_matches"),
    path("games/", your_games.your_games, name="your_games"),
    path("match/new", views.match_new, name="match_new"),
    path("match/computer", views.vs_computer, name="match_vs_computer"),
    path("match/<int:match_id>/join", views.match_join, name="match_join"),
    path("match/<int:match_id>/cancel", views.match_cancel, name="match_cancel"),
    path("invite/<invite_token:token>/", views.invite, name="invite"),
    path("challenge/new", views.challenge_new, name="challenge_new"),
    path("challenge/<int:challenge_id>/accept", views.challenge_accept, name="challenge_accept"),
    path("challenge/<int:challenge_id>/decline", views.challenge_decline, name="challenge_decline"),
    path("challenge/<int:challenge_id>/cancel", views.challenge_cancel, name="challenge_cancel"),
    path("users/<username:username>/", views.profile, name="profile"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/tokens/new", views.token_new, name="token_new"),
    path("accounts/tokens/<int:token_id>/revoke", views.token_revoke, name="token_revoke"),
    path(
        "accounts/login/",
        # Lockouts after failed logins: django-axes (lobby/throttle.py).
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        # Named: django.contrib.admin's registration/ templates of the same name come first.
        auth_views.PasswordChangeView.as_view(
            form_class=PasswordAndTokensForm, template_name="lobby/password_change_form.html"
        ),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="lobby/password_change_done.html"),
        name="password_change_done",
    ),
]
