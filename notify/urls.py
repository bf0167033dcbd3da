from django.urls import path

from . import views

app_name = "notify"

urlpatterns = [
    path("accounts/notifications/", views.preferences, name="preferences"),
    path("accounts/notifications/push", views.push_subscribe, name="push_subscribe"),
    path("notifications/verify/<str:token>/", views.verify, name="verify"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
