from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new", views.tournament_new, name="new"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:tournament_id>/live", views.tournament_live, name="live"),
    path("tournaments/<int:tournament_id>/register", views.tournament_register, name="register"),
    path("tournaments/<int:tournament_id>/withdraw", views.tournament_withdraw, name="withdraw"),
    path("tournaments/<int:tournament_id>/cancel", views.tournament_cancel, name="cancel"),
    path("ladder/<slug:game>/", views.ladder, name="ladder"),
    path("ladder/<slug:game>/join", views.ladder_join, name="ladder_join"),
    path("ladder/<slug:game>/leave", views.ladder_leave, name="ladder_leave"),
]
