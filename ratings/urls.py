from django.urls import path

from . import pairing_views, views

app_name = "ratings"

urlpatterns = [
    path("leaderboard/", views.leaderboards, name="leaderboards"),
    path("leaderboard/<slug:game>/<slug:kind>/", views.leaderboard_page, name="leaderboard"),
    path("accounts/program", views.mark_program_account, name="mark_program"),
    path("play/", pairing_views.play_now, name="play_now"),
    path("play/waiting/", pairing_views.waiting, name="waiting"),
    path("play/waiting/status", pairing_views.waiting_status, name="waiting_status"),
    path("play/cancel", pairing_views.cancel, name="cancel_seek"),
]
